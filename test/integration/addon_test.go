package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/mco-org/mco/test/integration/framework"
)

// addon is an Addon with the given extra spec lines (indented under spec).
func addon(name, extra string) string {
	return "apiVersion: addons.mco-org.github.io/v1alpha1\nkind: Addon\nmetadata: {name: " + name + "}\n" +
		"spec:\n  chart: {repository: https://charts.example.com/stable, name: log-collector, version: 2.1.0}\n" + extra
}

// TestAddons applies Addons with real kubectl: cluster-scoped, served with
// its short name, category and columns, defaulted; bad ones are refused
// naming the field; kubectl explain knows the kind.
func TestAddons(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, addon("log-collector", "  release: {namespace: logging, createNamespace: true}\n"+
		"  values: {replicaCount: 3, region: \"${cluster.region}\"}\n"+
		"  valuesFrom: [{kind: ConfigMap, namespace: platform, name: lc-values}]\n"+
		"  overrides: [{clusterSelector: {matchLabels: {size: large}}, values: {replicaCount: 5}}]\n"+
		"  dependsOn: [{name: base-config}]\n  conflictsWith: [{name: legacy-monitor}]\n  kubeVersion: \">=1.33.0-0\"\n"),
		"apply", "-f", "-")
	out := s.MustKubectl(t, "", "get", "addon")
	for _, want := range []string{"CHART", "VERSION", "HEALTHY", "AGE", "log-collector", "2.1.0", "0/0"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl get addon lacks %q:\n%s", want, out)
		}
	}
	got := s.MustKubectl(t, "", "get", "addons.addons.mco-org.github.io", "log-collector", "-o",
		"jsonpath={.spec.release.name} {.spec.release.namespace} {.spec.valuesFrom[0].key} {.spec.values.region}")
	if got != "log-collector logging values.yaml ${cluster.region}" {
		t.Errorf("defaults and values: %q", got)
	}
	for _, bad := range []struct{ name, yaml, want string }{
		{"a version range", strings.Replace(addon("bad1", ""), "2.1.0", "^2.1", 1), "spec.chart.version"},
		{"an unknown placeholder", addon("bad2", "  values: {zone: \"${cluster.zone}\"}\n"), "spec.values[zone]"},
		{"values from a Pod", addon("bad3", "  valuesFrom: [{kind: Pod, namespace: a, name: b}]\n"), "spec.valuesFrom[0].kind"},
		{"a malformed range", addon("bad4", "  kubeVersion: \">=1.33 <<2\"\n"), "spec.kubeVersion"},
		{"depending on itself", addon("bad5", "  dependsOn: [{name: bad5}]\n"), "spec.dependsOn[0].name"},
		{"a repository of another scheme", strings.Replace(addon("bad6", ""), "https://", "ftp://", 1), "spec.chart.repository"},
	} {
		_, stderr, err := s.Kubectl(t, bad.yaml, "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, bad.want) {
			t.Errorf("%s: err %v, stderr %q; want a refusal naming %q", bad.name, err, stderr, bad.want)
		}
	}
	for _, field := range []string{"addons.spec.overrides", "addons.status.clusters"} {
		if out := s.MustKubectl(t, "", "explain", field); !strings.Contains(out, "FIELDS:") && !strings.Contains(out, "FIELD:") {
			t.Errorf("explain %s:\n%s", field, out)
		}
	}
	if out := s.MustKubectl(t, "", "get", "mco"); !strings.Contains(out, "addon.addons.mco-org.github.io/log-collector") {
		t.Errorf("kubectl get mco lists no addon:\n%s", out)
	}
}

// TestAddonWriterMustReadWhatItNames: an Addon naming a ConfigMap or
// Secret its writer may not get is refused, naming the field; once the
// writer may, it is admitted.
func TestAddonWriterMustReadWhatItNames(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: addon-writer}\n"+
		"rules: [{apiGroups: [addons.mco-org.github.io], resources: [addons], verbs: [get, create, update, patch]}]\n---\n"+
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: alice-addons}\n"+
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: addon-writer}\n"+
		"subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]\n", "apply", "-f", "-")
	named := addon("lc", "  valuesFrom: [{kind: Secret, namespace: platform, name: lc-secrets}]\n")
	// RBAC changes reach the authorizer through its informers: poll.
	var stderr string
	_ = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		_, stderr, _ = s.Kubectl(t, named, "apply", "-f", "-", "--as=alice")
		return strings.Contains(stderr, "spec.valuesFrom[0]"), nil
	})
	if !strings.Contains(stderr, "alice may not get secrets platform/lc-secrets") {
		t.Fatalf("stderr %q; want a refusal naming spec.valuesFrom[0]", stderr)
	}
	s.MustKubectl(t, "apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRole\nmetadata: {name: lc-secrets-reader}\n"+
		"rules: [{apiGroups: [\"\"], resources: [secrets], resourceNames: [lc-secrets], verbs: [get]}]\n---\n"+
		"apiVersion: rbac.authorization.k8s.io/v1\nkind: ClusterRoleBinding\nmetadata: {name: alice-lc-secrets}\n"+
		"roleRef: {apiGroup: rbac.authorization.k8s.io, kind: ClusterRole, name: lc-secrets-reader}\n"+
		"subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: alice}]\n", "apply", "-f", "-")
	err := wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		var applyErr error
		_, stderr, applyErr = s.Kubectl(t, named, "apply", "-f", "-", "--as=alice")
		return applyErr == nil, nil
	})
	if err != nil {
		t.Fatalf("alice may get the Secret now, and is still refused: %s", stderr)
	}
}
