// Package resource builds apiserver storage for a kind from a short
// description: its names, scope, validation and table columns. Every kind mco
// serves, built-in or ours, goes through the same strategy so that spec/status
// separation, generation tracking and server-side apply behave alike.
package resource

import (
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Spec describes one resource served by mco-apiserver.
type Spec struct {
	// Resource is the plural, group-qualified resource name, e.g. apps/deployments.
	Resource schema.GroupResource
	// Singular is the singular resource name, e.g. deployment.
	Singular string
	// Kind is the object kind, e.g. Deployment.
	Kind string
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

	// Default fills defaults before validation on create and update (optional;
	// decoding already applies scheme defaults).
	Default func(obj runtime.Object)
	// Validate checks an object on create (required).
	Validate func(obj runtime.Object) field.ErrorList
	// ValidateUpdate checks an update beyond Validate (optional).
	ValidateUpdate func(obj, old runtime.Object) field.ErrorList
	// Fields returns selectable fields beyond metadata.name and
	// metadata.namespace (optional).
	Fields func(obj runtime.Object) fields.Set

	// Columns are the table columns kubectl get prints after NAME.
	Columns []Column
}

// GroupVersionKind returns the kind's GVK in the given version.
func (s *Spec) GroupVersionKind(version string) schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: s.Resource.Group, Version: version, Kind: s.Kind}
}
