package lua

import (
	"strings"
	"testing"
)

func TestKubeModule(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	podTemplate := map[string]any{
		"metadata": map[string]any{"labels": map[string]any{"app": "x"}},
		"spec": map[string]any{
			"serviceAccountName": "runner",
			"nodeSelector":       map[string]any{"zone": "a"},
			"initContainers": []any{map[string]any{"name": "init", "resources": map[string]any{
				"requests": map[string]any{"cpu": "2"}}}},
			"containers": []any{
				map[string]any{"name": "a", "resources": map[string]any{"requests": map[string]any{"cpu": "500m", "memory": "1Gi"}},
					"envFrom": []any{map[string]any{"configMapRef": map[string]any{"name": "conf"}}}},
				map[string]any{"name": "b", "resources": map[string]any{"limits": map[string]any{"cpu": "250m"}}},
			},
			"volumes": []any{map[string]any{"name": "data", "persistentVolumeClaim": map[string]any{"claimName": "data"}},
				map[string]any{"name": "s", "secret": map[string]any{"secretName": "token"}}},
		},
	}
	cases := []struct {
		name, body string
		want       any
		wantErr    string
	}{
		{"resourceAdd sums quantities", `return kube.resourceAdd("100m", "1.2")`, "1300m", ""},
		{"resourceAdd takes nil as zero", `return kube.resourceAdd(nil, "1Gi")`, "1Gi", ""},
		{"resourceAdd refuses a bad quantity", `return kube.resourceAdd("x")`, nil, "quantity"},
		{"getResourceQuantity gives a number", `return kube.getResourceQuantity("1Gi")`, int64(1 << 30), ""},
		{"getResourceQuantity of millis", `return kube.getResourceQuantity("100m")`, 0.1, ""},
		{"accuratePodRequirements: init containers raise the sum, limits stand for requests", `return kube.accuratePodRequirements(pt)`,
			map[string]any{"nodeClaim": map[string]any{"nodeSelector": map[string]any{"zone": "a"}},
				"resourceRequest": map[string]any{"cpu": "2", "memory": "1Gi"}}, ""},
		{"accuratePodRequirements of an empty template is nil", `return kube.accuratePodRequirements({spec = {containers = {{name = "a"}}}})`, nil, ""},
		{"accuratePodRequirements takes one argument", `return kube.accuratePodRequirements(pt, pt)`, nil, "one argument"},
		{"getPodDependencies in Karmada's order of kinds", `return kube.getPodDependencies(pt, "ns")`, []any{
			map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "namespace": "ns", "name": "conf"},
			map[string]any{"apiVersion": "v1", "kind": "Secret", "namespace": "ns", "name": "token"},
			map[string]any{"apiVersion": "v1", "kind": "ServiceAccount", "namespace": "ns", "name": "runner"},
			map[string]any{"apiVersion": "v1", "kind": "PersistentVolumeClaim", "namespace": "ns", "name": "data"},
		}, ""},
		{"getPodDependencies with a nil namespace uses default", `return kube.getPodDependencies({spec = {serviceAccountName = "x"}}, nil)[1].namespace`, "default", ""},
		{"getPodDependencies without any is nil", `return kube.getPodDependencies({spec = {}}, "ns")`, nil, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := run(t, vm, `local kube = require("kube") function F(pt) `+c.body+` end`, "F", false, podTemplate)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got %#v, %v; want an error mentioning %q", got, err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equal(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}
