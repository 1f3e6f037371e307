package main

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
)

// deletion is how long deleting the Deployments' namespace took.
type deletion struct {
	// onMCO: until the namespace was gone from mco.
	onMCO time.Duration
	// inMembers: until it was gone from every member (full members), or
	// until every member's copy was being deleted (bare members, which run
	// no namespace controller to finish it).
	inMembers time.Duration
	// templatesGone, bindingsGone and memberObjectsGone: until no
	// Deployment was left on mco, no ResourceBinding, and no Deployment in
	// any member; where the time goes.
	templatesGone, bindingsGone, memberObjectsGone time.Duration
	// limit is what the phase was given; a figure not reached within it
	// stays 0.
	limit time.Duration
}

// figure renders one figure, or that it was not reached.
func (d deletion) figure(v time.Duration) string {
	if v == 0 {
		return fmt.Sprintf("not within %s", d.limit)
	}
	return v.Round(time.Millisecond).String()
}

// deleteNamespace deletes a namespace on mco and measures how long it and
// the members' copies take to go.
func (b *bench) deleteNamespace(ctx context.Context, ns string) (deletion, error) {
	b.logf("deleting namespace %s with its %d Deployments", ns, b.o.deployments)
	start := time.Now()
	d := deletion{limit: b.o.deleteTimeout}
	if err := b.kube.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		return d, fmt.Errorf("delete namespace %s on mco: %w", ns, err)
	}
	lastLog := start
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, d.limit, true, func(ctx context.Context) (bool, error) {
		b.stepsGone(ctx, ns, &d, time.Since(start))
		if d.onMCO == 0 {
			_, err := b.kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				d.onMCO = time.Since(start)
				b.logf("namespace %s gone from mco after %s", ns, d.onMCO.Round(time.Millisecond))
			}
		}
		left := b.membersHolding(ctx, ns)
		if d.onMCO != 0 && len(left) == 0 {
			d.inMembers = time.Since(start)
			return true, nil
		}
		if time.Since(lastLog) >= 10*time.Second {
			b.logf("deleting: gone from mco %t, still in members %v", d.onMCO != 0, left)
			lastLog = time.Now()
		}
		return false, nil
	})
	if err != nil {
		// A figure of its own, not a failure of the run.
		b.logf("namespace %s not deleted everywhere within %s (-delete-timeout): gone from mco after %s", ns, d.limit, d.figure(d.onMCO))
		return d, ctx.Err()
	}
	b.logf("namespace %s gone from every member after %s", ns, d.inMembers.Round(time.Millisecond))
	return d, nil
}

// stepsGone records when the namespace's templates, bindings and member
// objects were gone.
func (b *bench) stepsGone(ctx context.Context, ns string, d *deletion, at time.Duration) {
	one := metav1.ListOptions{Limit: 1}
	if d.templatesGone == 0 {
		if l, err := b.kube.AppsV1().Deployments(ns).List(ctx, one); err == nil && len(l.Items) == 0 {
			d.templatesGone = at
		}
	}
	if d.bindingsGone == 0 {
		if l, err := b.mco.WorkV1alpha2().ResourceBindings(ns).List(ctx, one); err == nil && len(l.Items) == 0 {
			d.bindingsGone = at
		}
	}
	if d.memberObjectsGone == 0 {
		for _, name := range b.names {
			if l, err := b.members[name].AppsV1().Deployments(ns).List(ctx, one); err != nil || len(l.Items) > 0 {
				return
			}
		}
		d.memberObjectsGone = at
	}
}

// membersHolding lists the members that still have the namespace: with
// full members, at all; with bare ones, not yet being deleted.
func (b *bench) membersHolding(ctx context.Context, ns string) []string {
	var out []string
	for _, name := range b.names {
		got, err := b.members[name].CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
		switch {
		case apierrors.IsNotFound(err):
		case err != nil:
			out = append(out, name+" ("+err.Error()+")")
		case b.o.full() || got.DeletionTimestamp == nil:
			out = append(out, name)
		}
	}
	return out
}
