package workstatus

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mco-org/mco/pkg/addon"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// DefaultNamespace puts a namespaced object of an add-on's Work that
// names no namespace into the add-on's release namespace, as helm install
// does; a kind the member does not serve yet is left as it is (its apply
// says why).
func DefaultNamespace(mapper meta.RESTMapper, w *workv1alpha1.Work, m *unstructured.Unstructured) {
	ns := w.Annotations[addon.NamespaceAnnotation]
	if ns == "" || m.GetNamespace() != "" {
		return
	}
	gvk := m.GroupVersionKind()
	mapping, err := mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err == nil && mapping.Scope.Name() == meta.RESTScopeNameNamespace {
		m.SetNamespace(ns)
	}
}
