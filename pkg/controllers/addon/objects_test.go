package addon

import (
	"encoding/json"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mco-org/mco/pkg/addon/chart"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestManifestsOf(t *testing.T) {
	obj := func(apiVersion, kind, name string, annotations map[string]any) *unstructured.Unstructured {
		meta := map[string]any{"name": name}
		if annotations != nil {
			meta["annotations"] = annotations
		}
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": apiVersion, "kind": kind, "metadata": meta}}
	}
	rendered := []chart.Object{
		{Object: obj("apiextensions.k8s.io/v1", "CustomResourceDefinition", "widgets.example.com", nil), CRD: true},
		{Object: obj("v1", "ConfigMap", "kept", map[string]any{chart.ResourcePolicyAnnotation: "keep"})},
		{Object: obj("apps/v1", "Deployment", "app", nil)},
	}
	marks := map[string]string{workv1alpha1.ResourceConflictResolutionAnnotation: workv1alpha1.ResourceConflictResolutionAbort, "generation": "3"}
	tests := []struct {
		name      string
		namespace string
		wantKinds []string
		wantKeep  []bool
	}{
		{name: "no namespace to create", wantKinds: []string{"CustomResourceDefinition", "ConfigMap", "Deployment"}, wantKeep: []bool{true, true, false}},
		{name: "the release namespace first, kept", namespace: "logging",
			wantKinds: []string{"Namespace", "CustomResourceDefinition", "ConfigMap", "Deployment"}, wantKeep: []bool{true, true, true, false}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, err := manifestsOf(rendered, marks, tt.namespace)
			if err != nil {
				t.Fatal(err)
			}
			if len(m.Raw) != len(tt.wantKinds) {
				t.Fatalf("%d manifests, want %d", len(m.Raw), len(tt.wantKinds))
			}
			for i, raw := range m.Raw {
				var u unstructured.Unstructured
				if err := json.Unmarshal(raw, &u.Object); err != nil {
					t.Fatal(err)
				}
				if u.GetKind() != tt.wantKinds[i] || m.Keep[i] != tt.wantKeep[i] {
					t.Errorf("manifest %d: %s keep %v, want %s keep %v", i, u.GetKind(), m.Keep[i], tt.wantKinds[i], tt.wantKeep[i])
				}
				a := u.GetAnnotations()
				if a["generation"] != "3" {
					t.Errorf("%s lacks the Addon's marks: %v", u.GetKind(), a)
				}
				wantResolution := workv1alpha1.ResourceConflictResolutionAbort
				if u.GetKind() == "Namespace" || u.GetKind() == "CustomResourceDefinition" {
					wantResolution = workv1alpha1.ResourceConflictResolutionOverwrite
				}
				if a[workv1alpha1.ResourceConflictResolutionAnnotation] != wantResolution {
					t.Errorf("%s: conflict resolution %q, want %q", u.GetKind(), a[workv1alpha1.ResourceConflictResolutionAnnotation], wantResolution)
				}
			}
		})
	}
	if rendered[2].Object.GetAnnotations() != nil {
		t.Errorf("the rendered objects (the render cache's) were changed")
	}
}
