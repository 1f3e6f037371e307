package intern

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// Metadata replaces the strings of obj's labels, annotations, namespace,
// finalizers, owners' API versions and kinds, and of its managedFields'
// managers, operations and versions by their canonical copies.
// obj must be freshly decoded, held by nobody else yet: its lists are
// changed in place. The content does not change.
func Metadata(obj metav1.Object) {
	if l := obj.GetLabels(); len(l) > 0 {
		obj.SetLabels(Map(l))
	}
	if a := obj.GetAnnotations(); len(a) > 0 {
		obj.SetAnnotations(Map(a))
	}
	if ns := obj.GetNamespace(); ns != "" {
		obj.SetNamespace(String(ns))
	}
	if f := obj.GetFinalizers(); len(f) > 0 {
		for i := range f {
			f[i] = String(f[i])
		}
		obj.SetFinalizers(f)
	}
	if refs := obj.GetOwnerReferences(); len(refs) > 0 {
		for i := range refs {
			refs[i].APIVersion, refs[i].Kind = String(refs[i].APIVersion), String(refs[i].Kind)
		}
		obj.SetOwnerReferences(refs)
	}
	if mf := obj.GetManagedFields(); len(mf) > 0 {
		for i := range mf {
			e := &mf[i]
			e.Manager, e.APIVersion, e.FieldsType, e.Subresource = String(e.Manager), String(e.APIVersion), String(e.FieldsType), String(e.Subresource)
			e.Operation = metav1.ManagedFieldsOperationType(String(string(e.Operation)))
		}
		obj.SetManagedFields(mf)
	}
}

// Map returns a copy of m whose keys and values are their canonical
// strings.
func Map(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[String(k)] = String(v)
	}
	return out
}
