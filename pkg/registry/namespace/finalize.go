package namespace

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
)

// FinalizeREST is the namespaces/finalize subresource: it changes
// spec.finalizers and nothing else.
type FinalizeREST struct {
	store *genericregistry.Store
}

// NewFinalize returns the finalize subresource over the namespaces store.
func NewFinalize(main *REST) *FinalizeREST {
	store := *main.Store
	store.UpdateStrategy = finalizeStrategy{RESTUpdateStrategy: main.Store.UpdateStrategy}
	store.ResetFieldsStrategy = nil
	return &FinalizeREST{store: &store}
}

// New returns an empty namespace.
func (r *FinalizeREST) New() runtime.Object { return &corev1.Namespace{} }

// Destroy is a no-op: the main resource owns the storage.
func (r *FinalizeREST) Destroy() {}

// Update writes spec.finalizers of a namespace.
func (r *FinalizeREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, _ bool, opts *metav1.UpdateOptions) (runtime.Object, bool, error) {
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, opts)
}

// finalizeStrategy keeps everything of the stored namespace but the new
// spec.finalizers.
type finalizeStrategy struct {
	rest.RESTUpdateStrategy
}

func (finalizeStrategy) PrepareForUpdate(_ context.Context, obj, old runtime.Object) {
	ns, oldNS := obj.(*corev1.Namespace), old.(*corev1.Namespace)
	finalizers := ns.Spec.Finalizers
	*ns = *oldNS.DeepCopy()
	ns.Spec.Finalizers = finalizers
}
