package rollout

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/rollout"
)

// bindingHandler queues bindings whose spec (template version, placement)
// changed, and deleted ones.
func (r *Controller) bindingHandler() cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if k, ok := binding.KeyOf(obj); ok {
			r.loop.Enqueue(k)
		}
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue,
		UpdateFunc: func(oldObj, newObj any) {
			o, err1 := meta.Accessor(oldObj)
			n, err2 := meta.Accessor(newObj)
			if err1 != nil || err2 != nil || o.GetGeneration() != n.GetGeneration() || n.GetDeletionTimestamp() != nil {
				enqueue(newObj)
			}
		},
		DeleteFunc: enqueue,
	}
}

// everyBinding queues every binding when a policy changes: which template
// it governs, and how, may have changed.
func (r *Controller) everyBinding() cache.ResourceEventHandler {
	all := func(any) {
		rbs, _ := r.bindings.RB.List(labels.Everything())
		for _, rb := range rbs {
			r.loop.Enqueue(binding.Key{Namespace: rb.Namespace, Name: rb.Name})
		}
		crbs, _ := r.bindings.CRB.List(labels.Everything())
		for _, crb := range crbs {
			r.loop.Enqueue(binding.Key{Name: crb.Name})
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: all, UpdateFunc: func(_, n any) { all(n) }, DeleteFunc: all}
}

// rolloutHandler queues the binding of a Rollout whose spec changed (a
// pause, resume or rollback) or that was deleted by someone else.
func (r *Controller) rolloutHandler() cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if ro, ok := obj.(*rolloutv1alpha1.Rollout); ok {
			r.loop.Enqueue(rollout.BindingOf(ro))
		}
	}
	return cache.ResourceEventHandlerFuncs{
		UpdateFunc: func(oldObj, newObj any) {
			if oldObj.(*rolloutv1alpha1.Rollout).Generation != newObj.(*rolloutv1alpha1.Rollout).Generation {
				enqueue(newObj)
			}
		},
		DeleteFunc: enqueue,
	}
}

// workHandler queues the binding of a Work whose status changed: a
// cluster's health at its revision may have.
func (r *Controller) workHandler() cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		w, ok := obj.(*workv1alpha1.Work)
		if !ok {
			return
		}
		k, ok := binding.OwnerOf(w)
		if !ok {
			return
		}
		// Only staged templates care about their Works' health.
		if _, err := r.rollouts.Rollouts(rollout.RecordNamespace(k.Namespace)).Get(k.Name); err == nil {
			r.loop.Enqueue(k)
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, n any) { enqueue(n) }, DeleteFunc: enqueue}
}
