// Package scale serves the scale subresource of workloads (autoscaling/v1
// Scale), as kubectl scale and autoscalers use it.
package scale

import (
	"context"
	"fmt"

	autoscalingv1 "k8s.io/api/autoscaling/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Accessor reads and writes the replica count of one workload kind.
type Accessor struct {
	// Get returns the desired replicas, observed replicas and label selector.
	Get func(obj runtime.Object) (spec, status int32, selector string, err error)
	// Set writes the desired replicas.
	Set func(obj runtime.Object, replicas int32)
}

// REST is a scale subresource over a workload store.
type REST struct {
	store    *genericregistry.Store
	accessor Accessor
}

var (
	_ rest.Patcher                  = &REST{}
	_ rest.GroupVersionKindProvider = &REST{}
)

// New returns the scale subresource of the workloads in store.
func New(store *genericregistry.Store, accessor Accessor) *REST {
	return &REST{store: store, accessor: accessor}
}

// New returns an empty Scale.
func (r *REST) New() runtime.Object { return &autoscalingv1.Scale{} }

// Destroy is a no-op: the workload resource owns the storage.
func (r *REST) Destroy() {}

// GroupVersionKind answers with autoscaling/v1 Scale whatever the workload's group.
func (r *REST) GroupVersionKind(schema.GroupVersion) schema.GroupVersionKind {
	return autoscalingv1.SchemeGroupVersion.WithKind("Scale")
}

// Get returns the Scale of a workload.
func (r *REST) Get(ctx context.Context, name string, opts *metav1.GetOptions) (runtime.Object, error) {
	obj, err := r.store.Get(ctx, name, opts)
	if err != nil {
		return nil, err
	}
	return r.scaleOf(obj)
}

// Update sets a workload's replicas from an updated Scale.
func (r *REST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (runtime.Object, bool, error) {
	info := &scaleUpdatedObjectInfo{name: name, inner: objInfo, r: r}
	obj, _, err := r.store.Update(ctx, name, info, createValidation, updateValidation, false, opts)
	if err != nil {
		return nil, false, err
	}
	s, err := r.scaleOf(obj)
	return s, false, err
}

func (r *REST) scaleOf(obj runtime.Object) (*autoscalingv1.Scale, error) {
	spec, status, selector, err := r.accessor.Get(obj)
	if err != nil {
		return nil, err
	}
	m, err := metaOf(obj)
	if err != nil {
		return nil, err
	}
	return &autoscalingv1.Scale{
		ObjectMeta: metav1.ObjectMeta{
			Name: m.Name, Namespace: m.Namespace, UID: m.UID,
			ResourceVersion: m.ResourceVersion, CreationTimestamp: m.CreationTimestamp,
		},
		Spec:   autoscalingv1.ScaleSpec{Replicas: spec},
		Status: autoscalingv1.ScaleStatus{Replicas: status, Selector: selector},
	}, nil
}

// scaleUpdatedObjectInfo turns an update of the Scale into an update of the workload.
type scaleUpdatedObjectInfo struct {
	name  string
	inner rest.UpdatedObjectInfo
	r     *REST
}

func (i *scaleUpdatedObjectInfo) Preconditions() *metav1.Preconditions {
	return i.inner.Preconditions()
}

func (i *scaleUpdatedObjectInfo) UpdatedObject(ctx context.Context, oldObj runtime.Object) (runtime.Object, error) {
	oldScale, err := i.r.scaleOf(oldObj)
	if err != nil {
		return nil, err
	}
	obj, err := i.inner.UpdatedObject(ctx, oldScale)
	if err != nil {
		return nil, err
	}
	s, ok := obj.(*autoscalingv1.Scale)
	if !ok {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("expected a Scale, got %T", obj))
	}
	if s.Spec.Replicas < 0 {
		errs := field.ErrorList{field.Invalid(field.NewPath("spec", "replicas"), s.Spec.Replicas, "must be greater than or equal to 0")}
		return nil, apierrors.NewInvalid(autoscalingv1.SchemeGroupVersion.WithKind("Scale").GroupKind(), i.name, errs)
	}
	if s.Name != "" && s.Name != i.name {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("scale name %q does not match %q", s.Name, i.name))
	}
	updated := oldObj.DeepCopyObject()
	m, err := metaOf(updated)
	if err != nil {
		return nil, err
	}
	// An update that names a resourceVersion must see the workload at it.
	if s.ResourceVersion != "" {
		m.ResourceVersion = s.ResourceVersion
	}
	i.r.accessor.Set(updated, s.Spec.Replicas)
	return updated, nil
}

// metaOf returns the ObjectMeta of a typed object.
func metaOf(obj runtime.Object) (*metav1.ObjectMeta, error) {
	if o, ok := obj.(metav1.ObjectMetaAccessor); ok {
		if m, ok := o.GetObjectMeta().(*metav1.ObjectMeta); ok {
			return m, nil
		}
	}
	return nil, fmt.Errorf("object %T has no ObjectMeta", obj)
}
