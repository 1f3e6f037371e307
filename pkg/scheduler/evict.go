package scheduler

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/events"
	"github.com/mco-org/mco/pkg/scheduler/core"
)

// ConditionEvictionBlocked is True on a binding that should leave a
// cluster (a NoExecute taint it does not tolerate) but stays because no
// placement without that cluster exists; the message says why.
const ConditionEvictionBlocked = "EvictionBlocked"

// Reasons of ConditionEvictionBlocked.
const (
	ReasonNoAlternative = "NoAlternativePlacement"
	ReasonNoEviction    = "NoEvictionNeeded"
)

// evictionResult is what handling eviction requests decided.
type evictionResult struct {
	// moved: spec was written (clusters and eviction tasks); the pass ends.
	moved bool
	// blocked is the condition to publish (Status True when eviction
	// waits for a placement, False when none is needed).
	blocked metav1.Condition
	// retry is when to look again (a rate limit or a toleration ending).
	retry time.Duration
}

// evict moves the binding off clusters it must leave when the scheduler
// finds a placement without them; otherwise spec.clusters stays as it is.
func (s *Scheduler) evict(ctx context.Context, b *binding.View, clusters []*clusterv1alpha1.Cluster) (evictionResult, error) {
	now := time.Now()
	reqs, next := evictionRequests(b.Spec, s.states.observe(b.Key, b.Spec, b.Status), clusters, now)
	appReqs, appNext := applicationFailures(b.Key, b.Spec, b.Status, &s.unhealthy, now)
	reqs = append(reqs, appReqs...)
	if appNext > 0 && (next == 0 || appNext < next) {
		next = appNext
	}
	res := evictionResult{retry: next, blocked: metav1.Condition{Type: ConditionEvictionBlocked, Status: metav1.ConditionFalse,
		Reason: ReasonNoEviction, Message: "nothing requires the binding to leave a cluster it is on", ObservedGeneration: b.Meta.Generation}}
	if len(reqs) == 0 {
		s.blocked.set(b.Key, false)
		s.waiting.set(b.Key, false)
		return res, nil
	}
	trial := evictedSpec(b.Spec, reqs, metav1.NewTime(now))
	placed, err := s.core.Schedule(ctx, core.Input{Spec: trial, Status: b.Status, UID: string(b.Meta.UID), Clusters: clusters})
	if err != nil || !placesReplicas(placed.Clusters, trial.Replicas) {
		why := "no cluster can take its replicas"
		if err != nil {
			why = err.Error()
		}
		res.blocked.Status, res.blocked.Reason = metav1.ConditionTrue, ReasonNoAlternative
		res.blocked.Message = fmt.Sprintf("should leave %s but stays: no placement without it: %s", describeRequests(reqs), why)
		s.blocked.set(b.Key, true)
		s.waiting.set(b.Key, false)
		return res, nil
	}
	s.blocked.set(b.Key, false)
	if !s.limiter.allow(clusters) {
		s.waiting.set(b.Key, true)
		res.retry = s.limiter.retryAfter(clusters, s.waiting.len())
		return res, nil
	}
	s.waiting.set(b.Key, false)
	b.Spec.Clusters, b.Spec.GracefulEvictionTasks = placed.Clusters, trial.GracefulEvictionTasks
	if _, err := s.bindings.Update(ctx, b); err != nil {
		return res, fmt.Errorf("move off %s: %w", describeRequests(reqs), err)
	}
	for _, r := range reqs {
		s.metrics.EvictionKind.WithLabelValues(r.cluster, b.Spec.Resource.Kind).Inc()
	}
	msg := fmt.Sprintf("Moved off %s to %s", describeRequests(reqs), describeTargets(placed.Clusters))
	klog.FromContext(ctx).Info("Evicted", "binding", b.Key, "from", describeRequests(reqs), "to", describeTargets(placed.Clusters))
	s.recorder.Event(b.Object(), corev1.EventTypeNormal, events.EvictWorkloadFromClusterSucceed, msg)
	s.recorder.Event(b.TemplateRef(), corev1.EventTypeNormal, events.EvictWorkloadFromClusterSucceed, msg)
	res.moved = true
	return res, nil
}

// withEvictionCondition returns status with the EvictionBlocked condition
// set (a False one only replaces an existing condition: bindings that
// never had to leave a cluster carry none).
func withEvictionCondition(status *workv1alpha2.ResourceBindingStatus, cond metav1.Condition) (*workv1alpha2.ResourceBindingStatus, bool) {
	existing := meta.FindStatusCondition(status.Conditions, ConditionEvictionBlocked)
	if existing == nil && cond.Status == metav1.ConditionFalse {
		return status, false
	}
	if existing != nil && existing.Status == cond.Status && existing.Reason == cond.Reason && existing.Message == cond.Message {
		return status, false
	}
	out := status.DeepCopy()
	meta.SetStatusCondition(&out.Conditions, cond)
	return out, true
}

// keySet tracks bindings in one eviction state (blocked, or waiting
// for the rate limiter), for a gauge.
type keySet struct {
	mu sync.Mutex
	m  map[binding.Key]struct{}
}

func (b *keySet) set(k binding.Key, blocked bool) {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.m == nil {
		b.m = map[binding.Key]struct{}{}
	}
	if blocked {
		b.m[k] = struct{}{}
	} else {
		delete(b.m, k)
	}
}

func (b *keySet) len() int {
	b.mu.Lock()
	defer b.mu.Unlock()
	return len(b.m)
}
