package resource

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"

	"github.com/mco-org/mco/pkg/registry/stack"
)

// REST is the storage of a main resource. It publishes the spec's short
// names and categories in discovery.
type REST struct {
	*genericregistry.Store
	spec *Spec
}

var (
	_ rest.ShortNamesProvider   = &REST{}
	_ rest.CategoriesProvider   = &REST{}
	_ rest.SingularNameProvider = &REST{}
)

// ShortNames implements rest.ShortNamesProvider.
func (r *REST) ShortNames() []string { return r.spec.ShortNames }

// Categories implements rest.CategoriesProvider.
func (r *REST) Categories() []string { return r.spec.Categories }

// StatusREST is the storage of a status subresource: get, update and patch
// of the status only.
type StatusREST struct {
	store *genericregistry.Store
}

var _ rest.Patcher = &StatusREST{}

// New returns an empty object of the kind.
func (r *StatusREST) New() runtime.Object { return r.store.New() }

// Destroy is a no-op: the main resource owns the underlying storage.
func (r *StatusREST) Destroy() {}

// Get returns the object so that patches can be computed against it.
func (r *StatusREST) Get(ctx context.Context, name string, opts *metav1.GetOptions) (runtime.Object, error) {
	return r.store.Get(ctx, name, opts)
}

// Update writes the status of an object.
func (r *StatusREST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, opts *metav1.UpdateOptions) (runtime.Object, bool, error) {
	// Never create through the status subresource.
	stack.Grow()
	return r.store.Update(ctx, name, objInfo, createValidation, updateValidation, false, opts)
}

// GetResetFields names the fields the status subresource ignores.
func (r *StatusREST) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	return r.store.GetResetFields()
}

// ConvertToTable renders the object like the main resource does.
func (r *StatusREST) ConvertToTable(ctx context.Context, obj runtime.Object, opts runtime.Object) (*metav1.Table, error) {
	return r.store.ConvertToTable(ctx, obj, opts)
}

// NewStorage builds the storage of a resource and, when the spec asks for
// one, of its status subresource (nil otherwise).
func NewStorage(scheme *runtime.Scheme, spec *Spec, optsGetter generic.RESTOptionsGetter) (*REST, *StatusREST, error) {
	if spec.Validate == nil && spec.Kube == nil {
		return nil, nil, fmt.Errorf("resource %s: no validation function", spec.Resource)
	}
	st := newStrategy(scheme, spec)
	singular := schema.GroupResource{Group: spec.Resource.Group, Resource: spec.Singular}
	store := &genericregistry.Store{
		NewFunc:                   spec.New,
		NewListFunc:               spec.NewList,
		DefaultQualifiedResource:  spec.Resource,
		SingularQualifiedResource: singular,
		PredicateFunc:             spec.predicate,
		CreateStrategy:            st,
		UpdateStrategy:            st,
		DeleteStrategy:            st,
		ResetFieldsStrategy:       st,
		TableConvertor:            newTableConvertor(spec.Columns),
	}
	if spec.Table != nil {
		store.TableConvertor = spec.Table
	}
	if ttl := uint64(spec.TTL.Seconds()); ttl > 0 {
		store.TTLFunc = func(runtime.Object, uint64, bool) (uint64, error) { return ttl, nil }
	}
	options := &generic.StoreOptions{RESTOptions: optsGetter, AttrFunc: spec.getAttrs}
	if err := store.CompleteWithOptions(options); err != nil {
		return nil, nil, fmt.Errorf("complete storage for %s: %w", spec.Resource, err)
	}
	main := &REST{Store: store, spec: spec}
	statusStore := *store
	if spec.Kube != nil && spec.Kube.OnRead != nil {
		// As in kube-apiserver, the status subresource answers undecorated.
		store.Decorator = spec.Kube.decorate
	}
	if !spec.HasStatus {
		return main, nil, nil
	}
	ss := statusStrategy{strategy: st}
	statusStore.UpdateStrategy = ss
	statusStore.ResetFieldsStrategy = ss
	return main, &StatusREST{store: &statusStore}, nil
}

// Update writes an object, on a stack grown first (see package stack).
func (r *REST) Update(ctx context.Context, name string, objInfo rest.UpdatedObjectInfo, createValidation rest.ValidateObjectFunc, updateValidation rest.ValidateObjectUpdateFunc, forceAllowCreate bool, opts *metav1.UpdateOptions) (runtime.Object, bool, error) {
	stack.Grow()
	return r.Store.Update(ctx, name, objInfo, createValidation, updateValidation, forceAllowCreate, opts)
}

// GetSingularName implements rest.SingularNameProvider.
func (r *REST) GetSingularName() string { return r.spec.Singular }
