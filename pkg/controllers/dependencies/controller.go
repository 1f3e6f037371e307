// Package dependencies makes what a propagated workload's pods refer to
// (ConfigMaps, Secrets, ServiceAccounts, PersistentVolumeClaims) follow it
// when its policy sets propagateDeps: each dependency gets an attached
// binding whose requiredBy lists the workloads needing it and where they
// go, so it is propagated to the union of their clusters.
package dependencies

import (
	"context"
	"fmt"
	"sync"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/ptr"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/interpreter"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
)

// Controller is the dependencies distributor.
type Controller struct {
	bindings  *binding.Store
	templates *template.Resources
	interp    *interpreter.Interpreter
	scripts   *shared.ScriptReporter
	// wanted holds the kinds (schema.GroupVersionKind) customizations
	// have named as dependencies.
	wanted  sync.Map
	loop    *controller.Controller[binding.Key]
	workers int
	// requirers are the bindings indexed by requiredByIndex.
	requirers cache.Indexer
}

// New builds the dependencies distributor.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings().Informer()
	d := &Controller{bindings: c.Bindings, templates: c.Templates, workers: c.Workers, interp: c.Interpreter, scripts: c.Scripts}
	d.loop = controller.New("dependencies", d.sync)
	d.loop.WaitFor(rbs.HasSynced)
	if err := rbs.AddIndexers(cache.Indexers{requiredByIndex: requiredByKeys}); err != nil {
		return nil, fmt.Errorf("dependencies controller: index bindings by requiredBy: %w", err)
	}
	d.requirers = rbs.GetIndexer()
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
	// Customizations may name any kind, by name or by label: objects of a
	// kind named so far are looked at when they come or their labels
	// change.
	if err := c.Templates.OnKind(func(r template.Resource, inf cache.SharedIndexInformer) error {
		if !r.Namespaced {
			return nil
		}
		gvk := r.GVK
		_, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				if d.dependencyKind(gvk) {
					d.enqueueNamespace(obj)
				}
			},
			UpdateFunc: func(oldObj, newObj any) {
				o, _ := meta.Accessor(oldObj)
				n, _ := meta.Accessor(newObj)
				if o != nil && n != nil && !labels.Equals(o.GetLabels(), n.GetLabels()) && d.dependencyKind(gvk) {
					d.enqueueNamespace(newObj)
				}
			},
		})
		return err
	}); err != nil {
		return nil, fmt.Errorf("dependencies controller: %w", err)
	}
	d.loop.WaitFor(c.Customizations.HasSynced)
	c.Customizations.OnChange(func(gvk schema.GroupVersionKind) {
		for _, k := range c.Bindings.OfKind(gvk) {
			d.loop.Enqueue(k)
		}
	})
	return func(ctx context.Context) error { return d.loop.Run(ctx, d.workers) }, nil
}

var dependencyKinds = map[string]bool{"ConfigMap": true, "Secret": true, "ServiceAccount": true, "PersistentVolumeClaim": true}

// dependencyKind tells whether objects of a kind may be dependencies: the
// kinds pod templates refer to, and those customizations have named.
func (d *Controller) dependencyKind(gvk schema.GroupVersionKind) bool {
	if gvk.Group == "" && dependencyKinds[gvk.Kind] {
		return true
	}
	_, ok := d.wanted.Load(gvk)
	return ok
}

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
		if want, err = d.dependenciesOf(ctx, v); err != nil {
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
func (d *Controller) dependenciesOf(ctx context.Context, v *binding.View) (map[binding.Key]*unstructured.Unstructured, error) {
	r := v.Spec.Resource
	tmpl, err := d.templates.Get(template.KeyOfRef(r))
	if apierrors.IsNotFound(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	refs, err := d.interp.Dependencies(ctx, tmpl)
	if rerr := d.scripts.Report(ctx, v.Key, tmpl.GroupVersionKind(), configv1alpha1.InterpreterOperationInterpretDependency, err); rerr != nil && err == nil {
		return nil, rerr
	}
	if err != nil {
		return nil, err
	}
	out := map[binding.Key]*unstructured.Unstructured{}
	for _, ref := range refs {
		objs, err := d.resolve(ref, tmpl.GetNamespace())
		if err != nil {
			return nil, err
		}
		for _, obj := range objs {
			out[binding.Key{Namespace: obj.GetNamespace(), Name: names.Binding(obj.GetKind(), obj.GetName())}] = obj
		}
	}
	return out, nil
}

// resolve returns the templates a dependency names, in the workload's
// namespace: by name, or by label selector. A dependency in another
// namespace, or of a kind that is not a template, is left out; one not
// created yet is followed once it is.
func (d *Controller) resolve(ref configv1alpha1.DependentObjectReference, namespace string) ([]*unstructured.Unstructured, error) {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil || (ref.Namespace != "" && ref.Namespace != namespace) {
		return nil, nil
	}
	gvk := gv.WithKind(ref.Kind)
	d.wanted.Store(gvk, true)
	r, ok := d.templates.ByGVK(gvk)
	if !ok || !r.Namespaced {
		return nil, nil
	}
	if ref.Name != "" {
		obj, err := d.templates.Get(template.Key{GVK: gvk, Namespace: namespace, Name: ref.Name})
		if apierrors.IsNotFound(err) {
			return nil, nil
		}
		if err != nil {
			return nil, err
		}
		return []*unstructured.Unstructured{obj}, nil
	}
	selector, err := metav1.LabelSelectorAsSelector(ref.LabelSelector)
	if err != nil {
		return nil, nil // a script's bad selector selects nothing
	}
	lister, ok := d.templates.Lister(r)
	if !ok {
		return nil, nil
	}
	objs, err := lister.ByNamespace(namespace).List(selector)
	if err != nil {
		return nil, err
	}
	out := make([]*unstructured.Unstructured, 0, len(objs))
	for _, o := range objs {
		if u, ok := o.(*unstructured.Unstructured); ok {
			out = append(out, u)
		}
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
	objs, err := d.requirers.ByIndex(requiredByIndex, requirerKey(k))
	if err != nil {
		return err
	}
	for _, obj := range objs {
		rb, ok := obj.(*workv1alpha2.ResourceBinding)
		if !ok {
			continue
		}
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
