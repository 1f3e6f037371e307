// Package resource builds apiserver storage for a kind from a short
// description: its names, scope, validation and table columns. Every kind mco
// serves, built-in or ours, goes through the same strategy so that spec/status
// separation, generation tracking and server-side apply behave alike.
package resource

import (
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
)

// Spec describes one resource served by mco-apiserver.
type Spec struct {
	// Resource is the plural, group-qualified resource name, e.g. apps/deployments.
	Resource schema.GroupResource
	// Singular is the singular resource name, e.g. deployment.
	Singular string
	// Kind is the object kind, e.g. Deployment.
	Kind string
	// Version is the one API version the resource is served and stored in.
	Version string
	// Namespaced tells whether objects live in a namespace.
	Namespaced bool
	// New and NewList return empty objects of the kind and its list.
	New     func() runtime.Object
	NewList func() runtime.Object
	// ShortNames and Categories are published in discovery.
	ShortNames []string
	Categories []string

	// HasStatus serves a status subresource; the main resource then ignores
	// status changes and the status subresource ignores everything else.
	HasStatus bool
	// StatusMetadata says which metadata a write to the status subresource
	// may change (zero value: none of labels, annotations, finalizers and
	// owner references, as for custom resources).
	StatusMetadata StatusMetadataPolicy
	// Generation says when metadata.generation is set and bumped (zero
	// value: on any change outside metadata and status, as for custom
	// resources).
	Generation GenerationPolicy

	// Kube, when set, is Kubernetes' own strategy for a built-in kind: it
	// prepares, validates and warns on create, update and status writes in
	// place of Default, Validate, ValidateUpdate, ValidateStatus, Generation
	// and StatusMetadata (OnCreate still runs after it).
	Kube *KubeStrategy

	// Default fills defaults before validation on create and update (optional;
	// decoding already applies scheme defaults).
	Default func(obj runtime.Object)
	// Validate checks an object on create (required unless Kube is set).
	Validate func(obj runtime.Object) field.ErrorList
	// ValidateUpdate checks an update, the new object in full and the
	// transition from old; when nil, updates are checked with Validate.
	ValidateUpdate func(obj, old runtime.Object) field.ErrorList
	// ValidateStatus checks a write to the status subresource: the new
	// status and its transition from old, never the spec (optional; when
	// nil, any status passes). Metadata is checked by the generic registry
	// on every update.
	ValidateStatus func(obj, old runtime.Object) field.ErrorList
	// OnCreate changes a new object after defaulting and before validation,
	// as a mutating admission webhook would (optional).
	OnCreate func(obj runtime.Object)
	// Fields returns selectable fields beyond metadata.name and
	// metadata.namespace (optional).
	Fields func(obj runtime.Object) fields.Set

	// Columns are the table columns kubectl get prints after NAME.
	Columns []Column
	// Table, when set, renders tables in place of Columns (Kubernetes'
	// own printers for a built-in kind).
	Table rest.TableConvertor

	// TTL, when positive, is how long an object is kept after its last
	// write, as kube-apiserver keeps Events (--event-ttl).
	TTL time.Duration
}

// GroupVersion returns the group and version the resource is served in.
func (s *Spec) GroupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: s.Resource.Group, Version: s.Version}
}

// InternalGroupVersion returns the internal version of the resource's group.
func (s *Spec) InternalGroupVersion() schema.GroupVersion {
	return schema.GroupVersion{Group: s.Resource.Group, Version: runtime.APIVersionInternal}
}

// Typed adapts a validation function of a concrete type to Spec.Validate.
func Typed[T runtime.Object](validate func(T) field.ErrorList) func(runtime.Object) field.ErrorList {
	return func(obj runtime.Object) field.ErrorList {
		t, ok := obj.(T)
		if !ok {
			return field.ErrorList{field.InternalError(nil, fmt.Errorf("unexpected object type %T", obj))}
		}
		return validate(t)
	}
}

// TypedUpdate adapts an update validation function of a concrete type to
// Spec.ValidateUpdate.
func TypedUpdate[T runtime.Object](validate func(T, T) field.ErrorList) func(runtime.Object, runtime.Object) field.ErrorList {
	return func(obj, old runtime.Object) field.ErrorList {
		t, ok1 := obj.(T)
		o, ok2 := old.(T)
		if !ok1 || !ok2 {
			return field.ErrorList{field.InternalError(nil, fmt.Errorf("unexpected object types %T, %T", obj, old))}
		}
		return validate(t, o)
	}
}
