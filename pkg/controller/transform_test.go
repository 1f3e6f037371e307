package controller

import (
	"runtime"
	"testing"
	"unsafe"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
)

func TestSlimMetadata(t *testing.T) {
	fields := []metav1.ManagedFieldsEntry{{Manager: "kubectl", Operation: metav1.ManagedFieldsOperationApply}}
	typed := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "a", ManagedFields: fields}}
	u := &unstructured.Unstructured{}
	u.SetName("b")
	u.SetManagedFields(fields)
	tomb := cache.DeletedFinalStateUnknown{Key: "ns/c", Obj: &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{ManagedFields: fields}}}

	tests := []struct {
		name string
		in   interface{}
		left func() int
		want int
	}{
		{"typed object", typed, func() int { return len(typed.ManagedFields) }, 0},
		{"unstructured object", u, func() int { return len(u.GetManagedFields()) }, 0},
		{"tombstone passes through", tomb, func() int { return len(tomb.Obj.(*appsv1.Deployment).ManagedFields) }, 1},
		{"not an object", "x", func() int { return 0 }, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, err := SlimMetadata(tt.in)
			if err != nil {
				t.Fatalf("SlimMetadata: %v", err)
			}
			if out == nil {
				t.Fatal("object lost")
			}
			if n := tt.left(); n != tt.want {
				t.Errorf("%d managedFields entries left, want %d", n, tt.want)
			}
		})
	}
	if _, found, _ := unstructured.NestedFieldNoCopy(u.Object, "metadata", "managedFields"); found {
		t.Error("unstructured object keeps an empty managedFields key")
	}
}

// TestSlimMetadataInterns: labels, annotations, the namespace, finalizers
// and owners' kinds keep their content, and two objects decoded apart (a
// garbage collection between them) share the bytes of equal strings.
func TestSlimMetadataInterns(t *testing.T) {
	decoded := func() *appsv1.Deployment {
		// Built from bytes each time, as a decoder builds them.
		s := func(b string) string { return string([]byte(b)) }
		return &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: s("shop"),
			Labels:          map[string]string{s("app"): s("web")},
			Annotations:     map[string]string{s("propagationpolicy.karmada.io/name"): s("web-policy")},
			Finalizers:      []string{s("karmada.io/binding-controller")},
			OwnerReferences: []metav1.OwnerReference{{APIVersion: s("apps/v1"), Kind: s("ReplicaSet"), Name: "a-1"}}}}
	}
	a := decoded()
	runtime.GC()
	b := decoded()
	u := &unstructured.Unstructured{}
	u.SetLabels(map[string]string{"app": "web"})
	u.SetNamespace("shop")
	u.SetFinalizers([]string{"karmada.io/binding-controller"})
	for _, obj := range []any{a, b, u} {
		if _, err := SlimMetadata(obj); err != nil {
			t.Fatal(err)
		}
	}
	if a.Labels["app"] != "web" || a.Annotations["propagationpolicy.karmada.io/name"] != "web-policy" || u.GetLabels()["app"] != "web" ||
		a.Namespace != "shop" || u.GetNamespace() != "shop" || u.GetFinalizers()[0] != "karmada.io/binding-controller" || a.OwnerReferences[0].Kind != "ReplicaSet" {
		t.Fatalf("content changed: %+v %+v", a.ObjectMeta, u.Object)
	}
	for what, pair := range map[string][2]string{
		"annotation value": {a.Annotations["propagationpolicy.karmada.io/name"], b.Annotations["propagationpolicy.karmada.io/name"]},
		"namespace":        {a.Namespace, b.Namespace},
		"finalizer":        {a.Finalizers[0], b.Finalizers[0]},
		"owner's kind":     {a.OwnerReferences[0].Kind, b.OwnerReferences[0].Kind},
	} {
		if unsafe.StringData(pair[0]) != unsafe.StringData(pair[1]) {
			t.Errorf("equal %ss of two objects are kept twice", what)
		}
	}
}
