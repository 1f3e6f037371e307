package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
)

// deletion is how long deleting the namespace took, step by step. A
// figure not reached within the limit stays 0.
type deletion struct {
	// templatesGone, bindingsGone: until no object of the benchmark was
	// left on mco, and no ResourceBinding.
	templatesGone, bindingsGone time.Duration
	// onMCO: until the namespace was gone from mco.
	onMCO time.Duration
	// copiesGone: until no member held a copy of any object (bare members
	// run no namespace controller, so their copies of the namespace itself
	// stay, being deleted).
	copiesGone time.Duration
	limit      time.Duration
}

// done is when the whole deletion was over, or 0.
func (d deletion) done() time.Duration {
	if d.onMCO == 0 || d.copiesGone == 0 {
		return 0
	}
	return max(d.onMCO, d.copiesGone)
}

// figure renders one figure, or that it was not reached.
func (d deletion) figure(v time.Duration) string {
	if v == 0 {
		return fmt.Sprintf("not within %s", d.limit)
	}
	return v.Round(time.Millisecond).String()
}

// deleteNamespace deletes the namespace on mco and follows its objects
// going from mco and from the members.
func (s *scale) deleteNamespace(ctx context.Context, t *tracker) (deletion, error) {
	ns := s.o.namespace
	s.logf("deleting namespace %s: %d Deployments, %d ConfigMaps, %d copies in members", ns, s.o.deployments, s.o.configMaps, t.left())
	start := time.Now()
	d := deletion{limit: s.o.deleteTimeout}
	if err := s.kube.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil {
		return d, fmt.Errorf("delete namespace %s on mco: %w", ns, err)
	}
	lastLog := start
	one := metav1.ListOptions{Limit: 1, LabelSelector: benchLabel}
	// With -heap-profiles, a second set is taken halfway, into deleting/:
	// the processes' peak comes during the deletion.
	copies, profiled := t.left(), s.o.profiles == ""
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, d.limit, true, func(ctx context.Context) (bool, error) {
		at := time.Since(start)
		if d.templatesGone == 0 {
			deps, err1 := s.kube.AppsV1().Deployments(ns).List(ctx, one)
			cms, err2 := s.kube.CoreV1().ConfigMaps(ns).List(ctx, one)
			if err1 == nil && err2 == nil && len(deps.Items)+len(cms.Items) == 0 {
				d.templatesGone = at
			}
		}
		if d.bindingsGone == 0 {
			if l, err := s.mco.WorkV1alpha2().ResourceBindings(ns).List(ctx, metav1.ListOptions{Limit: 1}); err == nil && len(l.Items) == 0 {
				d.bindingsGone = at
			}
		}
		if d.onMCO == 0 {
			if _, err := s.kube.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); apierrors.IsNotFound(err) {
				d.onMCO = at
				s.logf("namespace %s gone from mco after %s", ns, at.Round(time.Millisecond))
			}
		}
		left := t.left()
		if !profiled && left <= copies/2 {
			profiled = true
			if err := s.saveHeapProfiles(ctx, filepath.Join(s.o.profiles, "deleting")); err != nil {
				return false, err
			}
		}
		if d.copiesGone == 0 && left == 0 {
			d.copiesGone = at
			s.logf("no copy left in any member after %s", at.Round(time.Millisecond))
		}
		if d.done() != 0 {
			return true, nil
		}
		if time.Since(lastLog) >= 10*time.Second {
			s.logf("deleting: templates gone %t, bindings gone %t, namespace gone from mco %t, %d copies left in members",
				d.templatesGone != 0, d.bindingsGone != 0, d.onMCO != 0, left)
			lastLog = time.Now()
		}
		return false, nil
	})
	if err != nil {
		// A figure of its own, not a failure of the run.
		s.logf("namespace %s not deleted everywhere within %s (-delete-timeout)", ns, d.limit)
		return d, ctx.Err()
	}
	return d, nil
}
