package binding

import (
	"context"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/events"
	"github.com/mco-org/mco/pkg/rollout"
)

// Condition on a binding telling whether the override policies could be
// applied for every target cluster.
const (
	ConditionOverridesApplied = "OverridesApplied"
	ReasonOverridesApplied    = "Succeeded"
	ReasonOverrideFailed      = "OverrideFailed"
)

// bindingHandler queues bindings whose spec, labels or deletion changed;
// status-only updates are not this controller's business.
func (b *Controller) bindingHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: b.enqueue,
		UpdateFunc: func(oldObj, newObj any) {
			o, err1 := meta.Accessor(oldObj)
			n, err2 := meta.Accessor(newObj)
			if err1 != nil || err2 != nil || o.GetGeneration() != n.GetGeneration() ||
				n.GetDeletionTimestamp() != nil || !labels.Equals(o.GetLabels(), n.GetLabels()) {
				b.enqueue(newObj)
			}
		},
	}
}

func (b *Controller) enqueue(obj any) {
	if k, ok := binding.KeyOf(obj); ok {
		b.loop.Enqueue(k)
	}
}

func (b *Controller) everyBinding() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { b.enqueueAll() },
		UpdateFunc: func(any, any) { b.enqueueAll() },
		DeleteFunc: func(any) { b.enqueueAll() },
	}
}

func (b *Controller) enqueueAll() {
	rbs, _ := b.bindings.RB.List(labels.Everything())
	for _, rb := range rbs {
		b.loop.Enqueue(binding.Key{Namespace: rb.Namespace, Name: rb.Name})
	}
	crbs, _ := b.bindings.CRB.List(labels.Everything())
	for _, crb := range crbs {
		b.loop.Enqueue(binding.Key{Name: crb.Name})
	}
}

// onWorkUpdate queues the owner of a Work whose spec, labels or
// annotations changed, or that is being deleted: a hand edit to put right.
// Status writes, three per binding and more, are not this controller's.
func (b *Controller) onWorkUpdate(oldObj, newObj any) {
	o, ok1 := oldObj.(*workv1alpha1.Work)
	n, ok2 := newObj.(*workv1alpha1.Work)
	if ok1 && ok2 && o.Generation == n.Generation && n.DeletionTimestamp == nil &&
		labels.Equals(o.Labels, n.Labels) && labels.Equals(o.Annotations, n.Annotations) {
		return
	}
	b.enqueueOwner(newObj)
}

// enqueueOwner queues the binding a changed or deleted Work came from, so
// that a Work deleted or edited by hand is written again.
func (b *Controller) enqueueOwner(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	w, ok := obj.(*workv1alpha1.Work)
	if !ok {
		return
	}
	if k, ok := OwnerOf(w); ok {
		b.loop.Enqueue(k)
	}
}

// OwnerOf returns the binding a Work was derived from.
func OwnerOf(w *workv1alpha1.Work) (binding.Key, bool) { return binding.OwnerOf(w) }

// setOverrideCondition records whether overrides failed for some cluster.
func (b *Controller) setOverrideCondition(ctx context.Context, v *binding.View, failures []string) error {
	c := metav1.Condition{Type: ConditionOverridesApplied, Status: metav1.ConditionTrue, Reason: ReasonOverridesApplied,
		Message: "Override policies applied for every target cluster.", ObservedGeneration: v.Meta.Generation}
	if len(failures) > 0 {
		c.Status, c.Reason = metav1.ConditionFalse, ReasonOverrideFailed
		c.Message = "Nothing was written for " + strings.Join(failures, "; ")
	}
	// Success is recorded only to clear an earlier failure: a binding whose
	// overrides always applied carries no condition (one write less each).
	if old := meta.FindStatusCondition(v.Status.Conditions, ConditionOverridesApplied); len(failures) == 0 &&
		(old == nil || old.Status == metav1.ConditionTrue) {
		return nil
	}
	if !meta.SetStatusCondition(&v.Status.Conditions, c) {
		return nil
	}
	if err := b.bindings.UpdateStatus(ctx, v); err != nil {
		return err
	}
	if len(failures) > 0 {
		recorder := b.recorders.For(v.Key.String())
		recorder.Event(v.Object(), corev1.EventTypeWarning, events.ApplyOverrideFailed, c.Message)
		recorder.Event(v.TemplateRef(), corev1.EventTypeWarning, events.ApplyOverrideFailed, c.Message)
	}
	return nil
}

// rolloutHandler queues the binding of a Rollout whose decisions changed:
// the clusters' revisions are in its status.
func (b *Controller) rolloutHandler() cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		r, ok := obj.(*rolloutv1alpha1.Rollout)
		if !ok {
			return
		}
		b.loop.Enqueue(rollout.BindingOf(r))
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue,
		UpdateFunc: func(oldObj, newObj any) {
			o, n := oldObj.(*rolloutv1alpha1.Rollout), newObj.(*rolloutv1alpha1.Rollout)
			if !givenEqual(o.Status.Clusters, n.Status.Clusters) {
				enqueue(newObj)
			}
		},
		DeleteFunc: enqueue,
	}
}

// givenEqual tells whether two lists give every cluster the same revision.
func givenEqual(a, b []rolloutv1alpha1.ClusterRevision) bool {
	if len(a) != len(b) {
		return false
	}
	given := map[string]int64{}
	for _, c := range a {
		given[c.Name] = c.Revision
	}
	for _, c := range b {
		if r, ok := given[c.Name]; !ok || r != c.Revision {
			return false
		}
	}
	return true
}
