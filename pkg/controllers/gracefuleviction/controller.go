// Package gracefuleviction ends the graceful eviction tasks of bindings:
// the copy left on a cluster a binding was moved off is withdrawn once the
// new placement runs the workload healthy, and not before, even past the
// grace period (a condition then says what is missing).
package gracefuleviction

import (
	"context"
	"fmt"
	"strings"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
)

// ConditionEvictionOverdue is True on a binding whose old copy stays past
// its grace period because the new placement does not run everything yet.
const ConditionEvictionOverdue = "GracefulEvictionOverdue"

// Controller is the graceful eviction controller.
type Controller struct {
	bindings *binding.Store
	grace    time.Duration
	now      func() time.Time
	loop     *controller.Controller[binding.Key]
}

// New builds the controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings().Informer()
	crbs := c.MCOInformers.Work().V1alpha2().ClusterResourceBindings().Informer()
	x := &Controller{bindings: c.Bindings, grace: c.GracefulEvictionTimeout, now: time.Now}
	x.loop = controller.New("graceful-eviction", x.sync)
	x.loop.WaitFor(rbs.HasSynced, crbs.HasSynced)
	h := cache.ResourceEventHandlerFuncs{AddFunc: x.enqueue, UpdateFunc: func(_, obj any) { x.enqueue(obj) }}
	for _, inf := range []cache.SharedIndexInformer{rbs, crbs} {
		if _, err := inf.AddEventHandler(h); err != nil {
			return nil, fmt.Errorf("graceful eviction controller: %w", err)
		}
	}
	return func(ctx context.Context) error { return x.loop.Run(ctx, c.Workers) }, nil
}

func (x *Controller) enqueue(obj any) {
	var tasks int
	var overdue bool
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		tasks, overdue = len(b.Spec.GracefulEvictionTasks), meta.IsStatusConditionTrue(b.Status.Conditions, ConditionEvictionOverdue)
	case *workv1alpha2.ClusterResourceBinding:
		tasks, overdue = len(b.Spec.GracefulEvictionTasks), meta.IsStatusConditionTrue(b.Status.Conditions, ConditionEvictionOverdue)
	}
	if k, ok := binding.KeyOf(obj); ok && (tasks > 0 || overdue) {
		x.loop.Enqueue(k)
	}
}

func (x *Controller) sync(ctx context.Context, k binding.Key) error {
	v, err := x.bindings.Get(k)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil || v.Meta.DeletionTimestamp != nil {
		return err
	}
	now := x.now()
	var keep []workv1alpha2.GracefulEvictionTask
	var removed, overdue []string
	var next time.Duration
	for _, t := range v.Spec.GracefulEvictionTasks {
		d := decideTask(t, v.Spec, v.Status, now, x.grace)
		switch {
		case d.remove:
			removed = append(removed, t.FromCluster)
			continue
		case d.overdue != "":
			overdue = append(overdue, fmt.Sprintf("%s (%s)", t.FromCluster, d.overdue))
		case d.after > 0 && (next == 0 || d.after < next):
			next = d.after
		}
		keep = append(keep, t)
	}
	if next > 0 {
		x.loop.EnqueueAfter(k, next)
	}
	if len(removed) > 0 {
		v.Spec.GracefulEvictionTasks = keep
		if _, err := x.bindings.Update(ctx, v); err != nil {
			return fmt.Errorf("end eviction tasks of %s: %w", k, err)
		}
		klog.FromContext(ctx).Info("Eviction done; the old copy is withdrawn", "binding", k, "clusters", removed)
		return nil // the write queues the binding again for the condition
	}
	return x.setOverdue(ctx, k, overdue)
}

// setOverdue publishes whether old copies stay past their grace period.
func (x *Controller) setOverdue(ctx context.Context, k binding.Key, overdue []string) error {
	v, err := x.bindings.Get(k)
	if err != nil {
		return err
	}
	cond := metav1.Condition{Type: ConditionEvictionOverdue, Status: metav1.ConditionFalse, Reason: "NoEvictionOverdue",
		Message: "no old copy stays past its grace period", ObservedGeneration: v.Meta.Generation}
	if len(overdue) > 0 {
		cond.Status, cond.Reason = metav1.ConditionTrue, "NewPlacementNotReady"
		cond.Message = "old copies stay past their grace period until the new placement runs everything: " + strings.Join(overdue, "; ")
	}
	existing := meta.FindStatusCondition(v.Status.Conditions, ConditionEvictionOverdue)
	if (existing == nil && len(overdue) == 0) || (existing != nil && existing.Status == cond.Status && existing.Message == cond.Message) {
		return nil
	}
	fresh, err := x.bindings.GetLive(ctx, k)
	if err != nil {
		return err
	}
	meta.SetStatusCondition(&fresh.Status.Conditions, cond)
	return x.bindings.UpdateStatus(ctx, fresh)
}
