package controller

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
)

func TestDropManagedFields(t *testing.T) {
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
			out, err := DropManagedFields(tt.in)
			if err != nil {
				t.Fatalf("DropManagedFields: %v", err)
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
