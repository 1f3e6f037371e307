package rollout

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func deployment(image string, replicas int64, labels, annotations map[string]any) *unstructured.Unstructured {
	return &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default", "labels": labels, "annotations": annotations,
			"resourceVersion": "7", "generation": int64(3)},
		"spec": map[string]any{"replicas": replicas, "template": map[string]any{"spec": map[string]any{
			"containers": []any{map[string]any{"name": "web", "image": image}}}}},
		"status": map[string]any{"replicas": replicas},
	}}
}

func hashOf(t *testing.T, obj *unstructured.Unstructured) string {
	t.Helper()
	h, err := Hash(Content(obj))
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func TestWhatMakesARevision(t *testing.T) {
	base := deployment("nginx:1", 3, map[string]any{"app": "web"}, map[string]any{"team": "a"})
	tests := []struct {
		name    string
		obj     *unstructured.Unstructured
		revises bool
	}{
		{"a new image is a revision", deployment("nginx:2", 3, map[string]any{"app": "web"}, map[string]any{"team": "a"}), true},
		{"a propagated label is a revision", deployment("nginx:1", 3, map[string]any{"app": "web", "tier": "x"}, map[string]any{"team": "a"}), true},
		{"a propagated annotation is a revision", deployment("nginx:1", 3, map[string]any{"app": "web"}, map[string]any{"team": "b"}), true},
		{"replicas are not", deployment("nginx:1", 5, map[string]any{"app": "web"}, map[string]any{"team": "a"}), false},
		{"mco's and Karmada's bookkeeping is not", deployment("nginx:1", 3,
			map[string]any{"app": "web", "propagationpolicy.karmada.io/permanent-id": "x"},
			map[string]any{"team": "a", "resourcetemplate.karmada.io/generation": "4", "rollout.mco-org.github.io/x": "y"}), false},
		{"kubectl's last applied configuration is not", deployment("nginx:1", 3, map[string]any{"app": "web"},
			map[string]any{"team": "a", "kubectl.kubernetes.io/last-applied-configuration": "{}"}), false},
		{"the change cause alone is not", deployment("nginx:1", 3, map[string]any{"app": "web"},
			map[string]any{"team": "a", "kubernetes.io/change-cause": "why"}), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			if got := hashOf(t, tc.obj) != hashOf(t, base); got != tc.revises {
				t.Errorf("new revision: %v, want %v", got, tc.revises)
			}
		})
	}
}

func TestWithContentKeepsLiveReplicasAndBookkeeping(t *testing.T) {
	old := deployment("nginx:1", 3, map[string]any{"app": "web"}, map[string]any{"kubernetes.io/change-cause": "v1"})
	live := deployment("nginx:2", 5, map[string]any{"app": "web", "new": "label", "propagationpolicy.karmada.io/name": "pp"},
		map[string]any{"kubernetes.io/change-cause": "v2"})
	got := WithContent(live, Content(old))
	containers, _, _ := unstructured.NestedSlice(got.Object, "spec", "template", "spec", "containers")
	if containers[0].(map[string]any)["image"] != "nginx:1" {
		t.Errorf("image %v, want the revision's nginx:1", containers[0])
	}
	if r, _, _ := unstructured.NestedInt64(got.Object, "spec", "replicas"); r != 5 {
		t.Errorf("replicas %d, want the live 5", r)
	}
	if l := got.GetLabels(); l["new"] != "" || l["propagationpolicy.karmada.io/name"] != "pp" || l["app"] != "web" {
		t.Errorf("labels %v, want the revision's with the live bookkeeping", l)
	}
	if a := got.GetAnnotations(); a["kubernetes.io/change-cause"] != "v1" {
		t.Errorf("annotations %v, want the revision's change cause", a)
	}
	if got.GetResourceVersion() != "7" || got.GetName() != "web" {
		t.Errorf("metadata lost: %v", got.Object["metadata"])
	}
}
