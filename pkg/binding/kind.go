package binding

import (
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// OfKind lists the keys of the cached bindings whose template is of kind
// gvk, for a controller to look at them again (when the kind's
// interpretation changes, say).
func (s *Store) OfKind(gvk schema.GroupVersionKind) []Key {
	apiVersion, kind := gvk.ToAPIVersionAndKind()
	var out []Key
	rbs, _ := s.RB.List(labels.Everything())
	for _, rb := range rbs {
		if rb.Spec.Resource.APIVersion == apiVersion && rb.Spec.Resource.Kind == kind {
			out = append(out, Key{Namespace: rb.Namespace, Name: rb.Name})
		}
	}
	crbs, _ := s.CRB.List(labels.Everything())
	for _, crb := range crbs {
		if crb.Spec.Resource.APIVersion == apiVersion && crb.Spec.Resource.Kind == kind {
			out = append(out, Key{Name: crb.Name})
		}
	}
	return out
}
