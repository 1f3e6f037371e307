package detector

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/template"
)

// The detector's event handlers: which template, binding and policy
// changes queue which templates, and what counts as a change.

// templateHandler queues templates on create, delete and any change but
// status (status writes of the status controller would loop otherwise).
func (d *Detector) templateHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(obj any) {
			d.activate(obj)
			d.enqueueTemplate(obj)
		},
		UpdateFunc: func(oldObj, newObj any) {
			if userChanged(oldObj, newObj) {
				d.activate(newObj)
			}
			if specOrMetaChanged(oldObj, newObj) {
				d.enqueueTemplate(newObj)
			}
		},
		DeleteFunc: d.enqueueTemplate,
	}
}

// activate marks a template as changed, for Lazy policies.
func (d *Detector) activate(obj any) {
	if u, ok := obj.(*unstructured.Unstructured); ok {
		d.activated.mark(template.KeyOf(u))
	}
}

// enqueueKind queues every template of a kind.
func (d *Detector) enqueueKind(gvk schema.GroupVersionKind) {
	r, ok := d.templates.ByGVK(gvk)
	if !ok {
		return
	}
	lister, ok := d.templates.Lister(r)
	if !ok {
		return
	}
	objs, _ := lister.List(labels.Everything())
	for _, obj := range objs {
		d.enqueueTemplate(obj)
	}
}

func (d *Detector) enqueueTemplate(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if u, ok := obj.(*unstructured.Unstructured); ok {
		d.loop.Enqueue(template.KeyOf(u))
	}
}

// specOrMetaChanged compares two versions of a template without status,
// resourceVersion and managedFields.
func specOrMetaChanged(oldObj, newObj any) bool {
	a, ok1 := oldObj.(*unstructured.Unstructured)
	b, ok2 := newObj.(*unstructured.Unstructured)
	if !ok1 || !ok2 {
		return true
	}
	return !apiequality.Semantic.DeepEqual(withoutVolatile(a), withoutVolatile(b))
}

func withoutVolatile(u *unstructured.Unstructured) map[string]any {
	return intentOf(u, false)
}

// intentOf is a template without what changes with no one's intent:
// status, resourceVersion and managedFields; for a user's change
// (userOnly) also generation and the labels and annotations of Karmada's
// and mco's own keys.
func intentOf(u *unstructured.Unstructured, userOnly bool) map[string]any {
	out := make(map[string]any, len(u.Object))
	for k, v := range u.Object {
		if k != "status" && k != "metadata" {
			out[k] = v
		}
	}
	m := map[string]any{}
	if meta, ok := u.Object["metadata"].(map[string]any); ok {
		for k, v := range meta {
			switch {
			case k == "resourceVersion" || k == "managedFields":
			case userOnly && k == "generation":
			case userOnly && (k == "labels" || k == "annotations"):
				m[k] = usersKeys(v)
			default:
				m[k] = v
			}
		}
	}
	out["metadata"] = m
	return out
}

// bindingDeleted queues the template of a binding deleted behind the
// detector's back, so that it is recreated while the template is claimed.
func (d *Detector) bindingDeleted(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if v := specOf(obj); v != nil {
		u := &unstructured.Unstructured{}
		u.SetAPIVersion(v.Resource.APIVersion)
		u.SetKind(v.Resource.Kind)
		k := template.Key{GVK: u.GroupVersionKind(), Namespace: v.Resource.Namespace, Name: v.Resource.Name}
		d.activated.mark(k) // a Lazy policy makes it again too
		d.loop.Enqueue(k)
	}
}
