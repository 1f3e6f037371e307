package scheduler

import (
	"context"
	"fmt"
	"time"

	"strings"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/events"
	"github.com/mco-org/mco/pkg/scheduler/core"
)

var everything = labels.Everything()

// sync schedules one binding and writes the result when it changed.
func (s *Scheduler) sync(ctx context.Context, k binding.Key) error {
	b, err := s.bindings.Get(k)
	if apierrors.IsNotFound(err) {
		s.states.forget(k)
	}
	if err != nil {
		return ignoreNotFound(err)
	}
	if !s.responsibleFor(b.Spec) || b.Meta.DeletionTimestamp != nil {
		return nil
	}
	logger := klog.FromContext(ctx).WithValues("binding", k)
	clusters, err := s.clusters()
	if err != nil {
		return fmt.Errorf("list clusters: %w", err)
	}
	ev, err := s.evict(ctx, b, clusters)
	if err != nil {
		return err
	}
	if ev.retry > 0 {
		s.loop.EnqueueAfter(k, ev.retry)
	}
	if ev.moved {
		return nil // the spec write queues the next pass, which writes status
	}
	if schedulingSuspended(b.Spec) {
		// Kept as it is (a queueing system holds it); clearing the
		// suspension changes the spec, which queues it again. Failover
		// above still moves it off a failed cluster.
		logger.V(4).Info("Scheduling suspended; binding left as it is")
		return nil
	}
	// Decisions in a namespace with a FederatedResourceQuota are made one
	// at a time, each against the others' written placements.
	unlock := s.quotas.lock(k.Namespace)
	defer unlock()
	start := time.Now()
	stype := scheduleType(b.Spec)
	res, schedErr := s.core.Schedule(ctx, core.Input{Spec: b.Spec, Status: b.Status, UID: string(b.Meta.UID), Clusters: clusters})
	if schedErr == nil && !sameClusters(b.Spec.Clusters, res.Clusters) {
		if err := s.quotas.check(ctx, s.client, b, res.Clusters); err != nil {
			schedErr = err
		}
	}
	decideAll := func() outcome {
		out := decide(b.Spec, b.Status, b.Meta.Generation, res, schedErr, metav1.Now())
		base := b.Status
		if out.status != nil {
			base = out.status
		}
		if st, changed := withEvictionCondition(base, ev.blocked); changed {
			out.status = st
		}
		return out
	}
	out := decideAll()
	if out.clusters == nil && out.status != nil {
		// A status-only write (rare: the store already shows this
		// scheduler's own writes): the cache may lag behind the status the
		// controller-manager writes too. Decide again on the server's copy
		// rather than be refused.
		fresh, err := s.bindings.GetLive(ctx, k)
		if err != nil {
			return ignoreNotFound(err)
		}
		if fresh.Meta.Generation == b.Meta.Generation {
			b = fresh
			out = decideAll()
		}
	}
	defer func() {
		s.pending.record(k, out.result)
		s.metrics.ScheduleAttempts.WithLabelValues(out.result, stype).Inc()
		s.metrics.E2ESchedulingDuration.WithLabelValues(out.result, stype).Observe(time.Since(start).Seconds())
	}()
	if out.clusters != nil {
		b.Spec.Clusters = out.clusters
		if b, err = s.bindings.Update(ctx, b); err != nil {
			return fmt.Errorf("write spec.clusters: %w", err)
		}
		if out.status == nil {
			out.status = b.Status.DeepCopy()
		}
		setObservedGeneration(out.status, b.Meta.Generation)
		logger.V(2).Info("Scheduled", "clusters", out.clusters)
		// Room this binding gave back may let a refused one through.
		s.enqueueRefused(k.Namespace, k.Name)
		// Success is told once, on the template; failures go on both.
		s.recorder.Event(b.TemplateRef(), corev1.EventTypeNormal, events.ScheduleBindingSucceed, "Scheduled to "+describeTargets(out.clusters))
	}
	if schedErr == nil && (out.clusters != nil || out.status != nil) {
		// A fresh decision: say which selected clusters lack the API.
		if left := apiLeftOut(b.Spec, res.AffinityName, clusters, res.Clusters); len(left) > 0 {
			msg := apiLeftOutMessage(b.Spec, left)
			s.recorder.Event(b.Object(), corev1.EventTypeWarning, ReasonAPIIncompatible, msg)
			s.recorder.Event(b.TemplateRef(), corev1.EventTypeWarning, ReasonAPIIncompatible, msg)
		}
	}
	if out.status != nil {
		before := meta.FindStatusCondition(b.Status.Conditions, workv1alpha2.Scheduled)
		*b.Status = *out.status
		if err := s.bindings.UpdateStatus(ctx, b); err != nil {
			return fmt.Errorf("write status: %w", err)
		}
		s.recordFailure(b, before)
		s.recordBlocked(b)
	}
	if schedErr != nil && out.result == "error" {
		return schedErr
	}
	return nil
}

// setObservedGeneration records the generation the decision was made for
// (the one our own spec write produced).
func setObservedGeneration(status *workv1alpha2.ResourceBindingStatus, gen int64) {
	status.SchedulerObservedGeneration = gen
	for i := range status.Conditions {
		if status.Conditions[i].Type == workv1alpha2.Scheduled {
			status.Conditions[i].ObservedGeneration = gen
		}
	}
}

// describeTargets renders a placement as "member1 (4), member2 (2)".
func describeTargets(clusters []workv1alpha2.TargetCluster) string {
	if len(clusters) == 0 {
		return "no cluster"
	}
	parts := make([]string, len(clusters))
	for i, c := range clusters {
		parts[i] = fmt.Sprintf("%s (%d)", c.Name, c.Replicas)
	}
	return strings.Join(parts, ", ")
}

// recordFailure records a Warning when scheduling newly fails or fails
// for another reason than before.
func (s *Scheduler) recordFailure(b *binding.View, before *metav1.Condition) {
	now := meta.FindStatusCondition(b.Status.Conditions, workv1alpha2.Scheduled)
	if now == nil || now.Status == metav1.ConditionTrue {
		return
	}
	if before != nil && before.Status == now.Status && before.Reason == now.Reason && before.Message == now.Message {
		return
	}
	s.recorder.Event(b.Object(), corev1.EventTypeWarning, events.ScheduleBindingFailed, now.Message)
	s.recorder.Event(b.TemplateRef(), corev1.EventTypeWarning, events.ScheduleBindingFailed, now.Message)
}

// recordBlocked records a Warning when the binding's eviction became
// blocked or is blocked for another reason than before. It is called after
// a status write, so it fires once per change.
func (s *Scheduler) recordBlocked(b *binding.View) {
	c := meta.FindStatusCondition(b.Status.Conditions, ConditionEvictionBlocked)
	if c == nil || c.Status != metav1.ConditionTrue {
		return
	}
	s.recorder.Event(b.Object(), corev1.EventTypeWarning, events.EvictWorkloadFromClusterFailed, c.Message)
	s.recorder.Event(b.TemplateRef(), corev1.EventTypeWarning, events.EvictWorkloadFromClusterFailed, c.Message)
}
