package binding

import (
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// OwnerOf returns the binding a Work was derived from.
func OwnerOf(w *workv1alpha1.Work) (Key, bool) {
	if name := w.Annotations[workv1alpha2.ClusterResourceBindingAnnotationKey]; name != "" {
		return Key{Name: name}, true
	}
	ns, name := w.Annotations[workv1alpha2.ResourceBindingNamespaceAnnotationKey], w.Annotations[workv1alpha2.ResourceBindingNameAnnotationKey]
	return Key{Namespace: ns, Name: name}, ns != "" && name != ""
}
