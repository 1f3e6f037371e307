package scheduler

import (
	"context"
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/klog/v2"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/core"
)

var everything = labels.Everything()

// binding is what sync needs of a ResourceBinding or ClusterResourceBinding.
type binding struct {
	meta   *metav1.ObjectMeta
	spec   *workv1alpha2.ResourceBindingSpec
	status *workv1alpha2.ResourceBindingStatus
	// updateSpec and updateStatus write a modified copy and return the
	// stored generation.
	updateSpec   func(ctx context.Context, clusters []workv1alpha2.TargetCluster) (int64, error)
	updateStatus func(ctx context.Context, status *workv1alpha2.ResourceBindingStatus) error
}

// sync schedules one binding and writes the result when it changed.
func (s *Scheduler) sync(ctx context.Context, k key) error {
	b, err := s.get(k)
	if err != nil {
		return ignoreNotFound(err)
	}
	if b == nil || !s.responsibleFor(b.spec) || b.meta.DeletionTimestamp != nil {
		return nil
	}
	logger := klog.FromContext(ctx).WithValues("binding", k)
	clusters, err := s.clusters()
	if err != nil {
		return fmt.Errorf("list clusters: %w", err)
	}
	start := time.Now()
	stype := scheduleType(b.spec)
	res, schedErr := s.core.Schedule(ctx, core.Input{Spec: b.spec, Status: b.status, UID: string(b.meta.UID), Clusters: clusters})
	out := decide(b.spec, b.status, b.meta.Generation, res, schedErr, metav1.Now())
	defer func() {
		s.pending.record(k, out.result)
		s.metrics.ScheduleAttempts.WithLabelValues(out.result, stype).Inc()
		s.metrics.E2ESchedulingDuration.WithLabelValues(out.result, stype).Observe(time.Since(start).Seconds())
	}()
	if out.clusters != nil {
		gen, err := b.updateSpec(ctx, out.clusters)
		if err != nil {
			return fmt.Errorf("write spec.clusters: %w", err)
		}
		if out.status == nil {
			out.status = b.status.DeepCopy()
		}
		setObservedGeneration(out.status, gen)
		logger.V(2).Info("Scheduled", "clusters", out.clusters)
	}
	if out.status != nil {
		if err := b.updateStatus(ctx, out.status); err != nil {
			return fmt.Errorf("write status: %w", err)
		}
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

// get reads a binding from the cache and wires its writers.
func (s *Scheduler) get(k key) (*binding, error) {
	if k.Namespace == "" {
		crb, err := s.crbLister.Get(k.Name)
		if err != nil {
			return nil, err
		}
		api := s.client.WorkV1alpha2().ClusterResourceBindings()
		return &binding{meta: &crb.ObjectMeta, spec: &crb.Spec, status: &crb.Status,
			updateSpec: func(ctx context.Context, clusters []workv1alpha2.TargetCluster) (int64, error) {
				c := crb.DeepCopy()
				c.Spec.Clusters = clusters
				updated, err := api.Update(ctx, c, metav1.UpdateOptions{})
				if err != nil {
					return 0, err
				}
				crb = updated
				return updated.Generation, nil
			},
			updateStatus: func(ctx context.Context, st *workv1alpha2.ResourceBindingStatus) error {
				c := crb.DeepCopy()
				c.Status = *st
				_, err := api.UpdateStatus(ctx, c, metav1.UpdateOptions{})
				return err
			}}, nil
	}
	rb, err := s.rbLister.ResourceBindings(k.Namespace).Get(k.Name)
	if err != nil {
		return nil, err
	}
	api := s.client.WorkV1alpha2().ResourceBindings(k.Namespace)
	return &binding{meta: &rb.ObjectMeta, spec: &rb.Spec, status: &rb.Status,
		updateSpec: func(ctx context.Context, clusters []workv1alpha2.TargetCluster) (int64, error) {
			c := rb.DeepCopy()
			c.Spec.Clusters = clusters
			updated, err := api.Update(ctx, c, metav1.UpdateOptions{})
			if err != nil {
				return 0, err
			}
			rb = updated
			return updated.Generation, nil
		},
		updateStatus: func(ctx context.Context, st *workv1alpha2.ResourceBindingStatus) error {
			c := rb.DeepCopy()
			c.Status = *st
			_, err := api.UpdateStatus(ctx, c, metav1.UpdateOptions{})
			return err
		}}, nil
}
