// Package dependencies makes what a propagated workload's pods refer to
// (ConfigMaps, Secrets, ServiceAccounts, PersistentVolumeClaims) follow it
// when its policy sets propagateDeps: each dependency gets an attached
// binding whose requiredBy lists the workloads needing it and where they
// go, so it is propagated to the union of their clusters.
package dependencies

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/workload"
)

// Controller is the dependencies distributor.
type Controller struct {
	bindings  *binding.Store
	templates *template.Resources
	loop      *controller.Controller[binding.Key]
	workers   int
}

// New builds the dependencies distributor.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings().Informer()
	d := &Controller{bindings: c.Bindings, templates: c.Templates, workers: c.Workers}
	d.loop = controller.New("dependencies", d.sync)
	d.loop.WaitFor(rbs.HasSynced)
	if _, err := rbs.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: d.enqueueIndependent,
		UpdateFunc: func(oldObj, newObj any) {
			o, _ := meta.Accessor(oldObj)
			n, _ := meta.Accessor(newObj)
			if o == nil || n == nil || o.GetGeneration() != n.GetGeneration() || n.GetDeletionTimestamp() != nil {
				d.enqueueIndependent(newObj)
			}
		},
		DeleteFunc: func(obj any) {
			if k, ok := binding.KeyOf(obj); ok {
				d.loop.Enqueue(k) // its dependencies are released
			}
		},
	}); err != nil {
		return nil, fmt.Errorf("dependencies controller: %w", err)
	}
	// A dependency created after its workload is picked up then.
	d.loop.WaitFor(c.Templates.HasSynced)
	if err := c.Templates.OnKind(func(r template.Resource, inf cache.SharedIndexInformer) error {
		if r.GVK.Group != "" || !dependencyKinds[r.GVK.Kind] {
			return nil
		}
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: d.enqueueNamespace})
		return err
	}); err != nil {
		return nil, fmt.Errorf("dependencies controller: %w", err)
	}
	return func(ctx context.Context) error { return d.loop.Run(ctx, d.workers) }, nil
}

var dependencyKinds = map[string]bool{"ConfigMap": true, "Secret": true, "ServiceAccount": true, "PersistentVolumeClaim": true}

func (d *Controller) enqueueIndependent(obj any) {
	if rb, ok := obj.(*workv1alpha2.ResourceBinding); ok && (rb.Spec.PropagateDeps || rb.DeletionTimestamp != nil) {
		d.loop.Enqueue(binding.Key{Namespace: rb.Namespace, Name: rb.Name})
	}
}

// enqueueNamespace queues the bindings with propagateDeps in the namespace
// of a new dependency object.
func (d *Controller) enqueueNamespace(obj any) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return
	}
	rbs, _ := d.bindings.RB.ResourceBindings(u.GetNamespace()).List(labels.Everything())
	for _, rb := range rbs {
		if rb.Spec.PropagateDeps {
			d.loop.Enqueue(binding.Key{Namespace: rb.Namespace, Name: rb.Name})
		}
	}
}

// sync brings the attached bindings of one workload's dependencies up to
// date, and releases those it no longer needs.
func (d *Controller) sync(ctx context.Context, k binding.Key) error {
	if k.Namespace == "" {
		return nil
	}
	want := map[binding.Key]*unstructured.Unstructured{}
	v, err := d.bindings.Get(k)
	switch {
	case apierrors.IsNotFound(err):
		v = nil
	case err != nil:
		return err
	}
	if v != nil && v.Meta.DeletionTimestamp == nil && v.Spec.PropagateDeps && !attached(v.Spec) {
		if want, err = d.dependenciesOf(v); err != nil {
			return err
		}
		for key, obj := range want {
			if err := d.attach(ctx, key, obj, v); err != nil {
				return err
			}
		}
	}
	return d.releaseStale(ctx, k, want)
}

// dependenciesOf returns the dependencies of a binding's template that
// exist on mco, by the key of their binding.
func (d *Controller) dependenciesOf(v *binding.View) (map[binding.Key]*unstructured.Unstructured, error) {
	r := v.Spec.Resource
	gv, _ := schema.ParseGroupVersion(r.APIVersion)
	tmpl, err := d.templates.Get(template.Key{GVK: gv.WithKind(r.Kind), Namespace: r.Namespace, Name: r.Name})
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	deps, err := workload.Dependencies(tmpl)
	if err != nil {
		return nil, err
	}
	out := map[binding.Key]*unstructured.Unstructured{}
	for _, dep := range deps {
		obj, err := d.templates.Get(template.Key{GVK: schema.GroupVersionKind{Version: "v1", Kind: dep.Kind}, Namespace: dep.Namespace, Name: dep.Name})
		if apierrors.IsNotFound(err) {
			continue // followed once it is created
		}
		if err != nil {
			return nil, err
		}
		out[binding.Key{Namespace: dep.Namespace, Name: names.Binding(dep.Kind, dep.Name)}] = obj
	}
	return out, nil
}

// attach records on a dependency's binding (created when missing) that
// binding v requires it, and where v goes.
func (d *Controller) attach(ctx context.Context, key binding.Key, obj *unstructured.Unstructured, v *binding.View) error {
	snap := requiredBy(v.Key, v.Spec.Clusters)
	b, err := d.bindings.Get(key)
	if apierrors.IsNotFound(err) {
		b = binding.New(key)
		b.Meta.OwnerReferences = []metav1.OwnerReference{{APIVersion: obj.GetAPIVersion(), Kind: obj.GetKind(), Name: obj.GetName(),
			UID: obj.GetUID(), Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true)}}
		b.Spec.Resource = workv1alpha2.ObjectReference{APIVersion: obj.GetAPIVersion(), Kind: obj.GetKind(),
			Namespace: obj.GetNamespace(), Name: obj.GetName(), UID: obj.GetUID(), ResourceVersion: obj.GetResourceVersion()}
		b.Spec.ConflictResolution = v.Spec.ConflictResolution
		b.Spec.PreserveResourcesOnDeletion = v.Spec.PreserveResourcesOnDeletion
		b.Spec.RequiredBy = []workv1alpha2.BindingSnapshot{snap}
		_, err = d.bindings.Create(ctx, b)
		if !apierrors.IsAlreadyExists(err) {
			return err
		}
		// Created a moment ago and not in the cache yet: this snapshot
		// (the workload's clusters may have changed since) goes on the
		// server's copy.
		b, err = d.bindings.GetLive(ctx, key)
	}
	if err != nil {
		return err
	}
	if b.Meta.DeletionTimestamp != nil {
		return controller.Retry("%s is being deleted", key)
	}
	if !setRequiredBy(&b.Spec.RequiredBy, snap) {
		return nil
	}
	_, err = d.bindings.Update(ctx, b)
	return err
}

// releaseStale removes k from the bindings it no longer requires, and
// deletes attached bindings nothing requires any more.
func (d *Controller) releaseStale(ctx context.Context, k binding.Key, keep map[binding.Key]*unstructured.Unstructured) error {
	rbs, err := d.bindings.RB.ResourceBindings(k.Namespace).List(labels.Everything())
	if err != nil {
		return err
	}
	for _, rb := range rbs {
		key := binding.Key{Namespace: rb.Namespace, Name: rb.Name}
		if _, ok := keep[key]; ok || !requires(&rb.Spec, k) {
			continue
		}
		b, err := d.bindings.Get(key)
		if err != nil {
			return err
		}
		dropRequiredBy(&b.Spec.RequiredBy, k)
		if attached(b.Spec) && len(b.Spec.RequiredBy) == 0 {
			if err := d.bindings.Delete(ctx, key); err != nil && !apierrors.IsNotFound(err) {
				return err
			}
			continue
		}
		if _, err := d.bindings.Update(ctx, b); err != nil {
			return err
		}
	}
	return nil
}
