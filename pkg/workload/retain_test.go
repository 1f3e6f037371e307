package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func u(obj map[string]any) *unstructured.Unstructured { return &unstructured.Unstructured{Object: obj} }

func TestRetain(t *testing.T) {
	t.Parallel()
	memberPod := map[string]any{"apiVersion": "v1", "kind": "Pod", "spec": map[string]any{
		"nodeName": "node-1", "serviceAccountName": "default",
		"volumes": []any{map[string]any{"name": "kube-api-access", "projected": map[string]any{}}},
		"containers": []any{map[string]any{"name": "app", "image": "nginx:1.26",
			"volumeMounts": []any{map[string]any{"name": "kube-api-access", "mountPath": "/var/run/secrets"}}}},
	}}
	cases := []struct {
		name     string
		desired  map[string]any
		observed map[string]any
		retains  bool
		want     map[string]any
	}{
		{
			name:     "A Pod keeps what the member's scheduler and admission set; the rest is the template's.",
			desired:  map[string]any{"apiVersion": "v1", "kind": "Pod", "spec": map[string]any{"containers": []any{map[string]any{"name": "app", "image": "nginx:1.27"}}}},
			observed: memberPod, retains: true,
			want: map[string]any{"apiVersion": "v1", "kind": "Pod", "spec": map[string]any{
				"nodeName": "node-1", "serviceAccountName": "default",
				"volumes": []any{map[string]any{"name": "kube-api-access", "projected": map[string]any{}}},
				"containers": []any{map[string]any{"name": "app", "image": "nginx:1.27",
					"volumeMounts": []any{map[string]any{"name": "kube-api-access", "mountPath": "/var/run/secrets"}}}},
			}},
		},
		{
			name:     "A Deployment labelled retain-replicas keeps the member's replicas.",
			desired:  map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"labels": map[string]any{RetainReplicasLabel: "true"}}, "spec": map[string]any{"replicas": int64(2)}},
			observed: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": int64(5)}},
			retains:  true,
			want:     map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"labels": map[string]any{RetainReplicasLabel: "true"}}, "spec": map[string]any{"replicas": int64(5)}},
		},
		{
			name:     "A Deployment without the label gets the template's replicas.",
			desired:  map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": int64(2)}},
			observed: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": int64(5)}},
			want:     map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "spec": map[string]any{"replicas": int64(2)}},
		},
		{
			name:     "A PersistentVolume keeps the claim the member bound it to.",
			desired:  map[string]any{"apiVersion": "v1", "kind": "PersistentVolume", "spec": map[string]any{"capacity": map[string]any{"storage": "1Gi"}}},
			observed: map[string]any{"apiVersion": "v1", "kind": "PersistentVolume", "spec": map[string]any{"capacity": map[string]any{"storage": "1Gi"}, "claimRef": map[string]any{"namespace": "shop", "name": "data"}}},
			retains:  true,
			want:     map[string]any{"apiVersion": "v1", "kind": "PersistentVolume", "spec": map[string]any{"capacity": map[string]any{"storage": "1Gi"}, "claimRef": map[string]any{"namespace": "shop", "name": "data"}}},
		},
		{
			name:     "Other kinds are left alone.",
			desired:  map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"a": "1"}},
			observed: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"a": "2"}},
			want:     map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"a": "1"}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			desired := u(tc.desired).DeepCopy()
			if got := Retains(desired); got != tc.retains {
				t.Errorf("Retains = %v, want %v", got, tc.retains)
			}
			if err := Retain(desired, u(tc.observed)); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, desired.Object); diff != "" {
				t.Errorf("retained (-want +got):\n%s", diff)
			}
		})
	}
}
