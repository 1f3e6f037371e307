package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// ric is a ResourceInterpreterCustomization of example.com/v1 Widget with
// the given name and customizations (YAML, indented under customizations).
func ric(name, customizations string) string {
	return "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterCustomization\nmetadata: {name: " + name +
		"}\nspec:\n  target: {apiVersion: example.com/v1, kind: Widget}\n  customizations:\n" + customizations
}

// TestResourceInterpreterCustomizations applies customizations with real
// kubectl: served with Karmada's short name and columns; a script that
// does not compile, lacks its function or loops is refused naming the
// field; an operation another customization of the kind defines is
// refused naming it, while dependency rules may repeat.
func TestResourceInterpreterCustomizations(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	replicas := "    replicaResource:\n      luaScript: |\n        function GetReplicas(obj)\n          return obj.spec.replicas, nil\n        end\n"
	deps := "    dependencyInterpretation:\n      luaScript: |\n        function GetDependencies(obj)\n          return {}\n        end\n"
	s.MustKubectl(t, ric("widgets", replicas+deps), "apply", "-f", "-")
	if out := s.MustKubectl(t, "", "get", "ric"); !strings.Contains(out, "TARGET-API-VERSION") || !strings.Contains(out, "example.com/v1") {
		t.Fatalf("kubectl get ric:\n%s", out)
	}
	for _, bad := range []struct{ name, yaml, want string }{
		{"syntax", ric("bad-syntax", "    healthInterpretation:\n      luaScript: 'function InterpretHealth(obj) return'\n"),
			"spec.customizations.healthInterpretation.luaScript"},
		{"missing function", ric("bad-function", "    healthInterpretation:\n      luaScript: 'function Healthy(obj) return true end'\n"),
			"must define function InterpretHealth"},
		{"endless chunk", ric("bad-loop", "    healthInterpretation:\n      luaScript: 'while true do end'\n"),
			"time limit"},
		{"overlap", ric("second", replicas), `already defined by ResourceInterpreterCustomization "widgets"`},
	} {
		_, stderr, err := s.Kubectl(t, bad.yaml, "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, bad.want) {
			t.Errorf("%s: err %v, stderr %q; want a refusal mentioning %q", bad.name, err, stderr, bad.want)
		}
	}
	s.MustKubectl(t, ric("more-deps", deps), "apply", "-f", "-")
}
