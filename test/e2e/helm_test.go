package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/test/e2e/framework"
)

// runHelm runs the real helm against a kubeconfig, with its own home.
func runHelm(t *testing.T, kubeconfig string, args ...string) string {
	t.Helper()
	cmd := exec.Command(filepath.Join(framework.BinDir, "helm"), append(args, "--kubeconfig", kubeconfig)...)
	home := t.TempDir()
	cmd.Env = append(cmd.Environ(), "HELM_CACHE_HOME="+home, "HELM_CONFIG_HOME="+home, "HELM_DATA_HOME="+home)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("helm %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// kwokChart is the kwok chart of the kwok module hack/tools builds the
// members' kwok from: a real chart nobody here wrote (Deployment, RBAC,
// Service, ConfigMap and a FlowSchema).
func kwokChart(t *testing.T) string {
	t.Helper()
	cmd := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/kwok")
	cmd.Dir = filepath.Join(framework.BinDir, "..", "..", "hack", "tools")
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("locate the kwok module: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "charts", "kwok")
	if _, err := os.Stat(filepath.Join(dir, "Chart.yaml")); err != nil {
		t.Fatalf("kwok chart: %v", err)
	}
	return dir
}

// TestHelmReleaseOnMCO: helm install with mco as the cluster, two policies
// carry the release's objects to the members (Helm's own release Secret
// stays on mco), and helm upgrade and uninstall on mco follow through.
func TestHelmReleaseOnMCO(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-helm")
	release := "kwok"
	name := release + "-controller" // the chart's full name for its objects
	kubectl(t, fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: release, namespace: %[1]s}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  - {apiVersion: v1, kind: Service, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  - {apiVersion: v1, kind: ServiceAccount, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  - {apiVersion: v1, kind: ConfigMap, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    # Divided, so that the summed status helm --wait reads on mco matches
    # the template's replicas (Duplicated copies would sum to more).
%[3]s---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: %[1]s-release}
spec:
  resourceSelectors:
  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRole, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  - {apiVersion: rbac.authorization.k8s.io/v1, kind: ClusterRoleBinding, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  - {apiVersion: flowcontrol.apiserver.k8s.io/v1, kind: FlowSchema, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
`, ns, release, splitEvenly), "apply", "-f", "-")

	mcoConfig := framework.Env.MCO.Kubeconfig
	chart := kwokChart(t)
	// --wait reads the Deployment's status on mco: the members' summed.
	runHelm(t, mcoConfig, "install", release, chart, "-n", ns, "--set", "replicas=2", "--wait", "--timeout", "3m")

	var objects []memberObject
	for _, r := range []struct{ group, resource, namespace string }{
		{"apps", "deployments", ns}, {"", "services", ns}, {"", "serviceaccounts", ns},
		{"rbac.authorization.k8s.io", "clusterroles", ""}, {"rbac.authorization.k8s.io", "clusterrolebindings", ""},
		{"flowcontrol.apiserver.k8s.io", "flowschemas", ""},
	} {
		objects = append(objects, memberObject{schema.GroupVersionResource{Group: r.group, Version: "v1", Resource: r.resource}, r.namespace, name})
	}
	present := func(want bool) { t.Helper(); waitInMembers(t, []string{"member1", "member2"}, objects, want) }
	present(true)
	// Helm's release record is a Secret on mco, not propagated.
	if out := kubectl(t, "", "-n", ns, "get", "secrets", "-l", "owner=helm", "-o", "name"); !strings.Contains(out, "sh.helm.release.v1."+release+".v1") {
		t.Errorf("no Helm release Secret on mco: %q", out)
	}

	runHelm(t, mcoConfig, "upgrade", release, chart, "-n", ns, "--set", "replicas=4", "--wait", "--timeout", "3m")
	waitReplicas(t, ns, name, map[string]int32{"member1": 2, "member2": 2})

	runHelm(t, mcoConfig, "uninstall", release, "-n", ns, "--wait", "--timeout", "2m")
	present(false)
}

// TestHelmMCOChartOnMCO: this project's own chart installed into mco is
// carried whole to the members by one PropagationPolicy (every kind it
// renders, by the release's label), and helm upgrade and uninstall on mco
// follow through there.
func TestHelmMCOChartOnMCO(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-helm-mco")
	const release = "mco"
	kinds := []struct {
		apiVersion, kind string
		gvr              schema.GroupVersionResource
		name             string
	}{
		{"apps/v1", "Deployment", schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, "mco-apiserver"},
		{"apps/v1", "StatefulSet", schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "statefulsets"}, "mco-etcd"},
		{"v1", "Service", schema.GroupVersionResource{Version: "v1", Resource: "services"}, "mco-apiserver"},
		{"v1", "ServiceAccount", schema.GroupVersionResource{Version: "v1", Resource: "serviceaccounts"}, "mco-scheduler"},
		{"v1", "Secret", schema.GroupVersionResource{Version: "v1", Resource: "secrets"}, "mco-ca"},
		{"v1", "ConfigMap", schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}, "mco-kubeconfigs"},
		{"policy/v1", "PodDisruptionBudget", schema.GroupVersionResource{Group: "policy", Version: "v1", Resource: "poddisruptionbudgets"}, "mco-apiserver"},
		{"networking.k8s.io/v1", "NetworkPolicy", schema.GroupVersionResource{Group: "networking.k8s.io", Version: "v1", Resource: "networkpolicies"}, "mco-etcd"},
	}
	var selectors strings.Builder
	for _, k := range kinds {
		fmt.Fprintf(&selectors, "  - {apiVersion: %s, kind: %s, labelSelector: {matchLabels: {app.kubernetes.io/instance: %s}}}\n", k.apiVersion, k.kind, release)
	}
	kubectl(t, fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: release, namespace: %s}
spec:
  resourceSelectors:
%s  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
`, ns, selectors.String()), "apply", "-f", "-")

	root := filepath.Join(framework.BinDir, "..", "..")
	chart := filepath.Join(root, "charts", "mco")
	values := filepath.Join(root, "test", "chart", "testdata", "install.values.yaml")
	mcoConfig := framework.Env.MCO.Kubeconfig
	runHelm(t, mcoConfig, "install", release, chart, "-n", ns, "-f", values)

	var objects []memberObject
	for _, k := range kinds {
		objects = append(objects, memberObject{k.gvr, ns, k.name})
	}
	present := func(want bool) { t.Helper(); waitInMembers(t, []string{"member1", "member2"}, objects, want) }
	present(true)

	runHelm(t, mcoConfig, "upgrade", release, chart, "-n", ns, "-f", values, "--set", "apiserver.replicas=2")
	waitReplicas(t, ns, "mco-apiserver", map[string]int32{"member1": 2, "member2": 2})

	runHelm(t, mcoConfig, "uninstall", release, "-n", ns, "--wait", "--timeout", "2m")
	present(false)
}

// TestHelmChartWithCRDs: a chart whose crds/ directory defines the kind
// its templates use installs into mco with helm install, and the CRD, the
// custom resource and the Deployment reach the members.
func TestHelmChartWithCRDs(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-helm-crds")
	const release = "gizmo"
	kubectl(t, fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: %[1]s-crds}
spec:
  resourceSelectors: [{apiVersion: apiextensions.k8s.io/v1, kind: CustomResourceDefinition, name: gizmos.charts.e2e.example.com}]
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: release, namespace: %[1]s}
spec:
  resourceSelectors:
  - {apiVersion: charts.e2e.example.com/v1, kind: Gizmo, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  - {apiVersion: apps/v1, kind: Deployment, labelSelector: {matchLabels: {app.kubernetes.io/instance: %[2]s}}}
  placement: {clusterAffinity: {clusterNames: [member1, member2]}}
`, ns, release), "apply", "-f", "-")
	chart, err := filepath.Abs(filepath.Join("testdata", "gizmo-chart"))
	if err != nil {
		t.Fatal(err)
	}
	runHelm(t, framework.Env.MCO.Kubeconfig, "install", release, chart, "-n", ns)
	gizmos := schema.GroupVersionResource{Group: "charts.e2e.example.com", Version: "v1", Resource: "gizmos"}
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{
		{schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}, "", "gizmos.charts.e2e.example.com"},
		{gizmos, ns, release},
		{schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}, ns, release + "-controller"},
	}, true)
	runHelm(t, framework.Env.MCO.Kubeconfig, "uninstall", release, "-n", ns, "--wait", "--timeout", "2m")
	// Helm keeps the CRDs it installed from crds/; the instance goes.
	waitInMembers(t, []string{"member1", "member2"}, []memberObject{{gizmos, ns, release}}, false)
}
