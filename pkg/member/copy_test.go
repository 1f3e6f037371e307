package member

import (
	"bytes"
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/client-go/tools/cache"
)

// TestCopy: a member object kept as a Copy shows the metadata handlers
// read, decodes to the object it was made from, and comes out of deletion
// tombstones the same way.
func TestCopy(t *testing.T) {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "ns", "uid": "u1", "resourceVersion": "7", "generation": int64(3),
			"labels": map[string]any{"work.karmada.io/permanent-id": "p"}, "annotations": map[string]any{"work.karmada.io/name": "web-abc"},
			"managedFields": []any{map[string]any{"manager": "mco"}}},
		"spec":   map[string]any{"replicas": int64(2), "template": map[string]any{"x": "y"}},
		"status": map[string]any{"replicas": int64(2), "observedGeneration": int64(3)},
	}}
	want := u.DeepCopy()
	unstructured.RemoveNestedField(want.Object, "spec", "template")
	want.SetManagedFields(nil)

	out, err := slimApplied(u)
	if err != nil {
		t.Fatal(err)
	}
	c, ok := out.(*Copy)
	if !ok {
		t.Fatalf("transform gave %T, want a Copy", out)
	}
	if key, _ := cache.MetaNamespaceKeyFunc(c); key != "ns/web" {
		t.Errorf("key %q", key)
	}
	if c.GetGeneration() != 3 || c.GetResourceVersion() != "7" || c.GetAnnotations()["work.karmada.io/name"] != "web-abc" || c.GroupVersionKind().Kind != "Deployment" {
		t.Errorf("metadata %+v %+v", c.TypeMeta, c.ObjectMeta)
	}
	// Labels and annotations are kept once, in the typed metadata.
	if bytes.Contains(c.raw, []byte("permanent-id")) || bytes.Contains(c.raw, []byte("web-abc")) {
		t.Errorf("the copy's JSON repeats its labels or annotations: %s", c.raw)
	}
	for name, item := range map[string]any{"copy": c, "deep copy": c.DeepCopyObject(), "tombstone": cache.DeletedFinalStateUnknown{Key: "ns/web", Obj: c}} {
		got, err := AsObject(item)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !reflect.DeepEqual(got.Object, want.Object) {
			t.Errorf("%s decodes to %v, want %v", name, got.Object, want.Object)
		}
		m, ok := MetaOf(item)
		if !ok || m.GetName() != "web" {
			t.Errorf("%s: metadata %v %t", name, m, ok)
		}
	}
	got, _ := AsObject(c)
	got.SetLabels(nil) // the caller's own
	if again, _ := AsObject(c); len(again.GetLabels()) != 1 {
		t.Error("a decoded copy shares state with the cache")
	}
	if _, err := AsObject(&metav1.Status{}); err == nil {
		t.Error("AsObject took a Status")
	}
}

// TestCopyMetadataAccessors: a Copy's labels and annotations, kept as
// pairs, are what metav1.Object's accessors and GetObjectMeta give, set
// through them, and a map they give is the caller's own.
func TestCopyMetadataAccessors(t *testing.T) {
	d := &unstructured.Unstructured{}
	d.SetAPIVersion("v1")
	d.SetKind("ConfigMap")
	d.SetName("c")
	d.SetLabels(map[string]string{"work.karmada.io/permanent-id": "p"})
	c := copyOf(d, "v1", "ConfigMap")
	if c.Labels != nil || c.Annotations != nil {
		t.Errorf("maps kept in the embedded metadata: %v %v", c.Labels, c.Annotations)
	}
	if got := c.GetObjectMeta().GetLabels()["work.karmada.io/permanent-id"]; got != "p" {
		t.Errorf("GetObjectMeta's labels: %q", got)
	}
	if c.GetAnnotations() != nil {
		t.Errorf("annotations %v, want none", c.GetAnnotations())
	}
	c.GetLabels()["x"] = "y"
	if len(c.GetLabels()) != 1 {
		t.Error("a read map shares state with the copy")
	}
	var m metav1.Object = c
	m.SetAnnotations(map[string]string{"k": "v"})
	if c.DeepCopyObject().(*Copy).GetAnnotations()["k"] != "v" {
		t.Error("annotations set through metav1.Object are lost on DeepCopyObject")
	}
}
