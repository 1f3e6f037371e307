package rollout

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/names"
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

// policyHandler queues the bindings whose templates a RolloutPolicy or
// ClusterRolloutPolicy selects, before or after a change: which policy
// governs them, and how, may have changed. A policy is read on its add,
// its deletion, a change of its spec (generation) or the start of its
// deletion; its status writes, the controller's own among them, queue
// nothing.
func (r *Controller) policyHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) { r.enqueueSelected(obj) },
		UpdateFunc: func(oldObj, newObj any) {
			if specChanged(oldObj, newObj) {
				r.enqueueSelected(oldObj, newObj)
			}
		},
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			r.enqueueSelected(obj)
		},
	}
}

// specChanged tells whether a policy's update can change what it governs
// or how: its generation moved, or its deletion started.
func specChanged(oldObj, newObj any) bool {
	o, err1 := meta.Accessor(oldObj)
	n, err2 := meta.Accessor(newObj)
	return err1 != nil || err2 != nil || o.GetGeneration() != n.GetGeneration() ||
		(o.GetDeletionTimestamp() == nil) != (n.GetDeletionTimestamp() == nil)
}

// enqueueSelected queues the bindings selectedBindings finds.
func (r *Controller) enqueueSelected(versions ...any) {
	for _, k := range r.selectedBindings(versions...) {
		r.loop.Enqueue(k)
	}
}

// selectedBindings are the bindings whose templates one of versions (of
// one policy) may select.
func (r *Controller) selectedBindings(versions ...any) []binding.Key {
	var sels []selection
	for _, v := range versions {
		if s, ok := selectionOf(v); ok {
			sels = append(sels, s)
		}
	}
	if len(sels) == 0 {
		return nil
	}
	mayGovern := func(ref workv1alpha2.ObjectReference) bool {
		tmpl := r.templateOf(ref)
		for _, s := range sels {
			if s.selects(ref, tmpl) {
				return true
			}
		}
		return false
	}
	var keys []binding.Key
	var rbs []*workv1alpha2.ResourceBinding
	if sels[0].cluster {
		rbs, _ = r.bindings.RB.List(labels.Everything())
		crbs, _ := r.bindings.CRB.List(labels.Everything())
		for _, crb := range crbs {
			if mayGovern(crb.Spec.Resource) {
				keys = append(keys, binding.Key{Name: crb.Name})
			}
		}
	} else {
		rbs, _ = r.bindings.RB.ResourceBindings(sels[0].namespace).List(labels.Everything())
	}
	for _, rb := range rbs {
		if mayGovern(rb.Spec.Resource) {
			keys = append(keys, binding.Key{Namespace: rb.Namespace, Name: rb.Name})
		}
	}
	return keys
}

// rolloutHandler queues the binding of a Rollout whose spec changed (a
// pause, resume or rollback) or that was deleted by someone else; a
// deleted Rollout's metric series go with it.
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
		DeleteFunc: func(obj any) {
			if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = t.Obj
			}
			if ro, ok := obj.(*rolloutv1alpha1.Rollout); ok {
				r.forgetMetrics(ro.Namespace, ro.Name)
			}
			enqueue(obj)
		},
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

// addonHandler queues a staged Addon's binding when its clusters' status
// changes: that is its health.
func (r *Controller) addonHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{UpdateFunc: func(oldObj, newObj any) {
		o, ok1 := oldObj.(*unstructured.Unstructured)
		n, ok2 := newObj.(*unstructured.Unstructured)
		if !ok1 || !ok2 {
			return
		}
		oc, _, _ := unstructured.NestedFieldNoCopy(o.Object, "status", "clusters")
		nc, _, _ := unstructured.NestedFieldNoCopy(n.Object, "status", "clusters")
		if apiequality.Semantic.DeepEqual(oc, nc) {
			return
		}
		k := binding.Key{Name: names.Binding(n.GetKind(), n.GetName())}
		if _, err := r.rollouts.Rollouts(rollout.RecordNamespace("")).Get(k.Name); err == nil {
			r.loop.Enqueue(k)
		}
	}}
}

// addonCluster is what an Addon's status says of one cluster (nil when it
// says nothing).
func addonCluster(tmpl *unstructured.Unstructured, cluster string) *addonsv1alpha1.AddonClusterStatus {
	list, _, _ := unstructured.NestedSlice(tmpl.Object, "status", "clusters")
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok || m["name"] != cluster {
			continue
		}
		c := &addonsv1alpha1.AddonClusterStatus{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(m, c); err != nil {
			return nil
		}
		return c
	}
	return nil
}
