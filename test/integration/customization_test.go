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

// TestResourceInterpreterWebhookConfigurations applies webhook
// configurations with real kubectl: a URL webhook without caBundle is
// accepted without being called (its host does not exist), a service
// one too; bad ones are refused naming the field.
func TestResourceInterpreterWebhookConfigurations(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	hook := func(name, clientConfig, extra string) string {
		return "apiVersion: config.karmada.io/v1alpha1\nkind: ResourceInterpreterWebhookConfiguration\nmetadata: {name: " + name + "}\nwebhooks:\n" +
			"- name: widgets.example.com\n  clientConfig: " + clientConfig + "\n" +
			"  rules: [{operations: [InterpretReplica], apiGroups: [example.com], apiVersions: [v1], kinds: [Widget]}]\n" +
			"  interpreterContextVersions: [v1alpha1]\n" + extra
	}
	s.MustKubectl(t, hook("by-url", "{url: 'https://interpreter.invalid:8443/widgets'}", "  timeoutSeconds: 3\n"), "apply", "-f", "-")
	s.MustKubectl(t, hook("by-service", "{service: {namespace: ns, name: widgets}}", ""), "apply", "-f", "-")
	if out := s.MustKubectl(t, "", "get", "resourceinterpreterwebhookconfigurations"); !strings.Contains(out, "by-url") || !strings.Contains(out, "by-service") {
		t.Fatalf("kubectl get:\n%s", out)
	}
	for _, bad := range []struct{ name, yaml, want string }{
		{"http", hook("bad-http", "{url: 'http://127.0.0.1/'}", ""), "webhooks[0].clientConfig.url"},
		{"both", hook("bad-both", "{url: 'https://a.example', service: {namespace: ns, name: w}}", ""), "exactly one of url or service"},
		{"timeout", hook("bad-timeout", "{url: 'https://a.example'}", "  timeoutSeconds: 60\n"), "webhooks[0].timeoutSeconds"},
		{"operation", strings.Replace(hook("bad-op", "{url: 'https://a.example'}", ""), "[InterpretReplica]", "[Explode]", 1),
			"webhooks[0].rules[0].operations[0]"},
	} {
		_, stderr, err := s.Kubectl(t, bad.yaml, "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, bad.want) {
			t.Errorf("%s: err %v, stderr %q; want a refusal mentioning %q", bad.name, err, stderr, bad.want)
		}
	}
}
