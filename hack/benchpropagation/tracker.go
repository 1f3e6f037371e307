package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"
)

// tracker records when each Deployment's create returned on mco and when
// each member first saw it (a Deployment informer per member).
type tracker struct {
	mu       sync.Mutex
	members  int
	create   map[string]time.Time
	seenBy   map[string]map[string]time.Time // deployment -> member -> when it first had it
	complete map[string]time.Time            // deployment -> first seen by the last member
}

// startTracker starts one informer per member on the namespace's
// Deployments and returns once they have listed; they stop with ctx.
func startTracker(ctx context.Context, members map[string]kubernetes.Interface, ns string) (*tracker, error) {
	t := &tracker{members: len(members), create: map[string]time.Time{},
		seenBy: map[string]map[string]time.Time{}, complete: map[string]time.Time{}}
	for name, client := range members {
		err := watchDeployments(ctx, client, ns, name, func(d *appsv1.Deployment) { t.seen(name, d.Name, time.Now()) })
		if err != nil {
			return nil, err
		}
	}
	return t, nil
}

// watchDeployments runs an informer on a server's Deployments of a
// namespace, calling on for each added or updated one, and returns once it
// has listed; it stops with ctx.
func watchDeployments(ctx context.Context, client kubernetes.Interface, ns, server string, on func(*appsv1.Deployment)) error {
	factory := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
	inf := factory.Apps().V1().Deployments().Informer()
	handle := func(obj any) {
		if d, ok := obj.(*appsv1.Deployment); ok {
			on(d)
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    handle,
		UpdateFunc: func(_, obj any) { handle(obj) },
	}); err != nil {
		return fmt.Errorf("watch deployments of %s: %w", server, err)
	}
	factory.Start(ctx.Done())
	syncCtx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	if !cache.WaitForCacheSync(syncCtx.Done(), inf.HasSynced) {
		return fmt.Errorf("list deployments of %s: informer did not sync", server)
	}
	return nil
}

func (t *tracker) created(name string, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.create[name] = at
}

func (t *tracker) seen(member, name string, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	by := t.seenBy[name]
	if by == nil {
		by = map[string]time.Time{}
		t.seenBy[name] = by
	}
	if _, ok := by[member]; ok {
		return
	}
	by[member] = at
	if len(by) == t.members {
		t.complete[name] = at
	}
}

// done counts the names in every member.
func (t *tracker) done(names []string) int {
	t.mu.Lock()
	defer t.mu.Unlock()
	n := 0
	for _, name := range names {
		if _, ok := t.complete[name]; ok {
			n++
		}
	}
	return n
}

// wait returns once every name is in every member, reporting progress
// every 10 s; it gives up when ctx ends.
func (t *tracker) wait(ctx context.Context, names []string, phase string, logf func(string, ...any)) error {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	lastLog := time.Now()
	for {
		n := t.done(names)
		if n == len(names) {
			return nil
		}
		if time.Since(lastLog) >= 10*time.Second {
			logf("%s phase: %d of %d Deployments in every member", phase, n, len(names))
			lastLog = time.Now()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("%s phase: only %d of %d Deployments reached every member: %w", phase, n, len(names), ctx.Err())
		case <-tick.C:
		}
	}
}

// latencies are, per name, the time from its create returning on mco to its
// presence in every member. Call once every name is complete.
func (t *tracker) latencies(names []string) []time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := make([]time.Duration, 0, len(names))
	for _, name := range names {
		out = append(out, t.complete[name].Sub(t.create[name]))
	}
	return out
}

// memberLatencies are, per member and name, the time from its create
// returning on mco to its presence in that member. Call once every name is
// complete.
func (t *tracker) memberLatencies(names []string) map[string][]time.Duration {
	t.mu.Lock()
	defer t.mu.Unlock()
	out := map[string][]time.Duration{}
	for _, name := range names {
		for member, at := range t.seenBy[name] {
			out[member] = append(out[member], at.Sub(t.create[name]))
		}
	}
	return out
}

// lastComplete is when the last of the names reached every member.
func (t *tracker) lastComplete(names []string) time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	var last time.Time
	for _, name := range names {
		if c := t.complete[name]; c.After(last) {
			last = c
		}
	}
	return last
}
