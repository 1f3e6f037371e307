package v1alpha1

import "k8s.io/apimachinery/pkg/runtime/schema"

// Is tells whether a kind is the Addon, at any version of the group.
func Is(gvk schema.GroupVersionKind) bool {
	return gvk.Group == GroupName && gvk.Kind == "Addon"
}
