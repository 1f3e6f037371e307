package detector

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/template"
)

func TestSkippedNamespace(t *testing.T) {
	for ns, want := range map[string]bool{
		"default": false, "team-a": false, "kube-system": true, "kube-public": true,
		"karmada-system": true, "karmada-cluster": true, "karmada-es-member1": true, "karmada-esx": false,
	} {
		if got := skippedNamespace(ns); got != want {
			t.Errorf("skippedNamespace(%q) = %v, want %v", ns, got, want)
		}
	}
}

func TestSkipped(t *testing.T) {
	pc := schema.GroupVersionKind{Group: "scheduling.k8s.io", Version: "v1", Kind: "PriorityClass"}
	cm := schema.GroupVersionKind{Version: "v1", Kind: "ConfigMap"}
	cases := []struct {
		name string
		key  template.Key
		want bool
	}{
		{"Kubernetes' system PriorityClass", template.Key{GVK: pc, Name: "system-cluster-critical"}, true},
		{"a user's PriorityClass", template.Key{GVK: pc, Name: "web-high"}, false},
		{"a ConfigMap named system-*", template.Key{GVK: cm, Namespace: "app", Name: "system-x"}, false},
		{"a ConfigMap in kube-system", template.Key{GVK: cm, Namespace: "kube-system", Name: "x"}, true},
	}
	for _, tc := range cases {
		if got := skipped(tc.key); got != tc.want {
			t.Errorf("%s: skipped = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestServerManaged(t *testing.T) {
	cases := []struct {
		name   string
		labels map[string]string
		want   bool
	}{
		{"an APIService the aggregator keeps for a local group", map[string]string{automanagedLabel: "onstart"}, true},
		{"a CRD group's APIService", map[string]string{automanagedLabel: "true"}, true},
		{"a user's APIService", map[string]string{"app": "metrics-server"}, false},
		{"a staged rollout's ControllerRevision", map[string]string{"rollout.mco-org.github.io/rollout": "web-deployment"}, true},
	}
	for _, tc := range cases {
		if got := serverManaged(&metav1.ObjectMeta{Labels: tc.labels}); got != tc.want {
			t.Errorf("%s: serverManaged = %v, want %v", tc.name, got, tc.want)
		}
	}
}
