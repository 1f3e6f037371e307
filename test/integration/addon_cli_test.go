package integration

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mco-org/mco/pkg/testing/chartrepo"
	"github.com/mco-org/mco/pkg/testing/repo"
	"github.com/mco-org/mco/test/integration/framework"
)

// chartRepository serves the add-on tests' chart as a Helm repository on
// loopback and returns its URL.
func chartRepository(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(repo.Root(t), "pkg", "addon", "chart", "testdata", "log-collector")
	return chartrepo.Serve(t, chartrepo.Chart{Dir: dir}).URL
}

// TestKubectlMCOAddon runs `kubectl mco addon values|render` against
// mco-apiserver and a chart repository on loopback: the values a cluster
// gets, by layer, Secret values redacted; the objects its chart renders
// with that cluster's version and APIs.
func TestKubectlMCOAddon(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	plugin := framework.Binary(t, "kubectl-mco")
	repoURL := chartRepository(t)
	s.MustKubectl(t, `apiVersion: v1
kind: Namespace
metadata: {name: platform}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: lc-values, namespace: platform}
data:
  values.yaml: |
    image: {tag: "2.2"}
---
apiVersion: v1
kind: Secret
metadata: {name: lc-secret, namespace: platform}
stringData:
  values.yaml: |
    token: hunter2
---
apiVersion: cluster.karmada.io/v1alpha1
kind: Cluster
metadata: {name: member1, labels: {size: large}}
spec: {apiEndpoint: "https://127.0.0.1:1", syncMode: Push, region: eu-west}
`, "apply", "-f", "-")
	s.MustKubectl(t, "", "patch", "clusters.cluster.karmada.io", "member1", "--subresource=status", "--type=merge", "-p",
		`{"status":{"kubernetesVersion":"v1.34.4","apiEnablements":[{"groupVersion":"v1","resources":[{"name":"configmaps","kind":"ConfigMap"}]},`+
			`{"groupVersion":"apps/v1","resources":[{"name":"deployments","kind":"Deployment"}]}]}}`)
	s.MustKubectl(t, addon("log-collector", "  release: {name: lc, namespace: logging}\n"+
		"  values: {region: \"${cluster.region}\", replicaCount: 2}\n"+
		"  valuesFrom: [{kind: ConfigMap, namespace: platform, name: lc-values}, {kind: Secret, namespace: platform, name: lc-secret}]\n"+
		"  overrides: [{clusterSelector: {matchLabels: {size: large}}, values: {replicaCount: 5}}]\n"), "apply", "-f", "-")
	s.MustKubectl(t, "", "patch", "addon", "log-collector", "--type=merge", "-p", `{"spec":{"chart":{"repository":"`+repoURL+`"}}}`)

	run := func(args ...string) string {
		t.Helper()
		out, errOut, err := s.KubectlWith(t, plugin, "", args...)
		if err != nil {
			t.Fatalf("kubectl mco %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
		}
		return out
	}
	values := run("addon", "values", "log-collector", "--cluster", "member1")
	for _, want := range []string{
		"# set by spec.values\nregion: eu-west\n",
		"# set by spec.overrides[0]\nreplicaCount: 5\n",
		"# set by spec.valuesFrom[0] (ConfigMap platform/lc-values, key values.yaml)\nimage:\n  tag: \"2.2\"\n",
		"# set by spec.valuesFrom[1] (Secret platform/lc-secret, key values.yaml)\ntoken: <redacted>\n",
	} {
		if !strings.Contains(values, want) {
			t.Errorf("values lack %q:\n%s", want, values)
		}
	}
	if shown := run("addon", "values", "log-collector", "--cluster", "member1", "--show-secrets"); !strings.Contains(shown, "token: hunter2") {
		t.Errorf("--show-secrets shows no token:\n%s", shown)
	}
	rendered := run("addon", "render", "log-collector", "--cluster", "member1")
	for _, want := range []string{"# Source: log-collector/crds/logsinks.yaml\napiVersion: apiextensions.k8s.io/v1",
		"replicas: 5", "value: eu-west", "value: v1.34.4", "image: registry.example.com/log-collector:2.2"} {
		if !strings.Contains(rendered, want) {
			t.Errorf("render lacks %q:\n%s", want, rendered)
		}
	}
	if strings.Contains(rendered, "PodDisruptionBudget") {
		t.Errorf("rendered a PodDisruptionBudget for a cluster whose API list has none:\n%s", rendered)
	}
	_, errOut, err := s.KubectlWith(t, plugin, "", "addon", "render", "log-collector", "--cluster", "nowhere")
	if err == nil || !strings.Contains(errOut, "cluster nowhere") {
		t.Errorf("an unknown cluster: %v %s", err, errOut)
	}
}
