package detector

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestUserChanged(t *testing.T) {
	t.Parallel()
	base := func() *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{
			"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "web", "namespace": "shop", "resourceVersion": "5", "generation": int64(2),
				"labels": map[string]any{"app": "web"}, "annotations": map[string]any{"note": "x"}},
			"spec":   map[string]any{"replicas": int64(2)},
			"status": map[string]any{"replicas": int64(2)},
		}}
	}
	tests := []struct {
		name string
		edit func(u *unstructured.Unstructured)
		want bool
	}{
		{"status only", func(u *unstructured.Unstructured) { u.Object["status"] = map[string]any{"replicas": int64(3)} }, false},
		{"resourceVersion and generation", func(u *unstructured.Unstructured) { u.SetResourceVersion("9"); u.SetGeneration(3) }, false},
		{"a claim label mco writes", func(u *unstructured.Unstructured) {
			u.SetLabels(map[string]string{"app": "web", "propagationpolicy.karmada.io/permanent-id": "abc"})
		}, false},
		{"a rollout mark mco writes", func(u *unstructured.Unstructured) {
			u.SetAnnotations(map[string]string{"note": "x", "rollout.mco-org.github.io/undo": "3"})
		}, false},
		{"the spec", func(u *unstructured.Unstructured) { u.Object["spec"] = map[string]any{"replicas": int64(3)} }, true},
		{"a user's label", func(u *unstructured.Unstructured) { u.SetLabels(map[string]string{"app": "web", "tier": "front"}) }, true},
		{"the skip-auto-propagation label counts as a user's", func(u *unstructured.Unstructured) {
			u.SetLabels(map[string]string{"app": "web", "namespace.karmada.io/skip-auto-propagation": "true"})
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			n := base()
			tt.edit(n)
			if got := userChanged(base(), n); got != tt.want {
				t.Errorf("userChanged = %v, want %v", got, tt.want)
			}
		})
	}
}
