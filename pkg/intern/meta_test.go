package intern

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// TestMetadata: every interned field keeps its content and shares the
// bytes of an equal string decoded apart; typed and unstructured objects.
func TestMetadata(t *testing.T) {
	typed := func() metav1.Object {
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: fresh("shop"),
			Labels:          map[string]string{fresh("app"): fresh("web")},
			Annotations:     map[string]string{fresh("propagationpolicy.karmada.io/name"): fresh("web-policy")},
			Finalizers:      []string{fresh("karmada.io/binding-controller")},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: fresh("apps/v1"), Kind: fresh("ReplicaSet"), Name: "a-1"}},
			ManagedFields: []metav1.ManagedFieldsEntry{{Manager: fresh("mco-controller-manager"), Operation: metav1.ManagedFieldsOperationType(fresh("Apply")),
				APIVersion: fresh("apps/v1"), FieldsType: fresh("FieldsV1"), FieldsV1: metav1.NewFieldsV1(`{"f:spec":{}}`)}}}}
	}
	unstructuredOne := func() metav1.Object {
		u := &unstructured.Unstructured{}
		u.SetNamespace(fresh("shop"))
		u.SetLabels(map[string]string{fresh("app"): fresh("web")})
		u.SetFinalizers([]string{fresh("karmada.io/binding-controller")})
		return u
	}
	fields := []struct {
		name string
		get  func(metav1.Object) string
		want string
	}{
		{"namespace", metav1.Object.GetNamespace, "shop"},
		{"label value", func(o metav1.Object) string { return o.GetLabels()["app"] }, "web"},
		{"finalizer", func(o metav1.Object) string { return o.GetFinalizers()[0] }, "karmada.io/binding-controller"},
	}
	typedOnly := []struct {
		name string
		get  func(metav1.Object) string
		want string
	}{
		{"annotation value", func(o metav1.Object) string { return o.GetAnnotations()["propagationpolicy.karmada.io/name"] }, "web-policy"},
		{"owner's kind", func(o metav1.Object) string { return o.GetOwnerReferences()[0].Kind }, "ReplicaSet"},
		{"manager", func(o metav1.Object) string { return o.GetManagedFields()[0].Manager }, "mco-controller-manager"},
		{"operation", func(o metav1.Object) string { return string(o.GetManagedFields()[0].Operation) }, "Apply"},
		{"field set", func(o metav1.Object) string { return o.GetManagedFields()[0].FieldsV1.String() }, `{"f:spec":{}}`},
	}
	for _, kind := range []struct {
		name string
		make func() metav1.Object
		only bool
	}{{"typed", typed, false}, {"unstructured", unstructuredOne, true}} {
		a, b := kind.make(), kind.make()
		Metadata(a)
		Metadata(b)
		all := fields
		if !kind.only {
			all = append(all, typedOnly...)
		}
		for _, f := range all {
			if got := f.get(a); got != f.want {
				t.Errorf("%s %s: %q, want %q", kind.name, f.name, got, f.want)
			}
			if f.name != "field set" && !same(f.get(a), f.get(b)) {
				t.Errorf("%s %s: kept twice", kind.name, f.name)
			}
		}
	}
}
