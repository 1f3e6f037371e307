package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/client-go/kubernetes"
)

// availability records when each Deployment became Available in each
// member and when mco's template said so: the lag between the two is how
// long a user waits for the members' status on mco.
type availability struct {
	mu       sync.Mutex
	members  int
	inMember map[string]map[string]time.Time // deployment -> member -> first available
	appeared map[string]map[string]time.Time // deployment -> member -> first seen
	onMCO    map[string]time.Time            // deployment -> template first available
}

// watchAvailability starts informers on the namespace's Deployments on
// mco and in every member; they stop with ctx.
func watchAvailability(ctx context.Context, mco kubernetes.Interface, members map[string]kubernetes.Interface, ns string) (*availability, error) {
	a := &availability{members: len(members), inMember: map[string]map[string]time.Time{},
		appeared: map[string]map[string]time.Time{}, onMCO: map[string]time.Time{}}
	clients := map[string]kubernetes.Interface{mcoServer: mco}
	for name, c := range members {
		clients[name] = c
	}
	for name, client := range clients {
		err := watchDeployments(ctx, client, ns, name, func(d *appsv1.Deployment) {
			if name != mcoServer {
				a.appear(name, d.Name, time.Now())
			}
			if available(d) {
				a.record(name, d.Name, time.Now())
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return a, nil
}

// available: every replica the Deployment wants is updated and available.
func available(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	return want > 0 && d.Status.ObservedGeneration >= d.Generation &&
		d.Status.UpdatedReplicas == want && d.Status.AvailableReplicas == want && d.Status.Replicas == want
}

func (a *availability) record(server, name string, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if server == mcoServer {
		if _, ok := a.onMCO[name]; !ok {
			a.onMCO[name] = at
		}
		return
	}
	by := a.inMember[name]
	if by == nil {
		by = map[string]time.Time{}
		a.inMember[name] = by
	}
	if _, ok := by[server]; !ok {
		by[server] = at
	}
}

func (a *availability) appear(member, name string, at time.Time) {
	a.mu.Lock()
	defer a.mu.Unlock()
	by := a.appeared[name]
	if by == nil {
		by = map[string]time.Time{}
		a.appeared[name] = by
	}
	if _, ok := by[member]; !ok {
		by[member] = at
	}
}

// memberTimes are, for every Deployment in every member, how long it took
// there from its arrival to Available: the members' own pace.
func (a *availability) memberTimes(names []string) []time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []time.Duration
	for _, name := range names {
		for member, at := range a.inMember[name] {
			if seen, ok := a.appeared[name][member]; ok {
				out = append(out, at.Sub(seen))
			}
		}
	}
	return out
}

// done counts the names Available on mco.
func (a *availability) done(names []string) int {
	a.mu.Lock()
	defer a.mu.Unlock()
	n := 0
	for _, name := range names {
		if _, ok := a.onMCO[name]; ok {
			n++
		}
	}
	return n
}

// lags are, per name Available on mco and in every member, how long after
// the last member's the template said so.
func (a *availability) lags(names []string) []time.Duration {
	a.mu.Lock()
	defer a.mu.Unlock()
	var out []time.Duration
	for _, name := range names {
		onMCO, ok := a.onMCO[name]
		if !ok || len(a.inMember[name]) != a.members {
			continue
		}
		var last time.Time
		for _, at := range a.inMember[name] {
			if at.After(last) {
				last = at
			}
		}
		out = append(out, max(0, onMCO.Sub(last)))
	}
	return out
}

// waitAvailable waits until every Deployment's template on mco is
// Available, reporting progress every 10 s, and returns how long that took
// from since.
func (b *bench) waitAvailable(ctx context.Context, a *availability, names []string, since time.Time) (time.Duration, error) {
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	lastLog := time.Now()
	for {
		n := a.done(names)
		if n == len(names) {
			return time.Since(since), nil
		}
		if time.Since(lastLog) >= 10*time.Second {
			b.logf("%d of %d Deployments Available on mco", n, len(names))
			lastLog = time.Now()
		}
		select {
		case <-ctx.Done():
			return 0, fmt.Errorf("only %d of %d Deployments became Available on mco: %w", n, len(names), ctx.Err())
		case <-tick.C:
		}
	}
}
