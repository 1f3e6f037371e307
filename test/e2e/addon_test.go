package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/addon"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/testing/chartrepo"
	"github.com/mco-org/mco/test/e2e/framework"
)

// tinyChart is the e2e add-on chart at a version, with values over its
// defaults.
func tinyChart(t *testing.T, version string, values map[string]any) chartrepo.Chart {
	dir, err := filepath.Abs(filepath.Join("testdata", "charts", "tiny"))
	if err != nil {
		t.Fatal(err)
	}
	return chartrepo.Chart{Dir: dir, Version: version, Values: values}
}

// addonYAML is an Addon of the tiny chart from repository, released into
// namespace (created in each cluster), with extra spec lines (indented two
// spaces), and the ClusterPropagationPolicy placing it by placement (a
// placement's YAML, indented four spaces).
func addonYAML(name, repository, version, namespace, extra, placement string) string {
	return fmt.Sprintf(`apiVersion: addons.mco-org.github.io/v1alpha1
kind: Addon
metadata: {name: %[1]s}
spec:
  chart: {repository: %[2]q, name: tiny, version: %[3]q}
  release: {namespace: %[4]s, createNamespace: true}
%[5]s---
apiVersion: policy.karmada.io/v1alpha1
kind: ClusterPropagationPolicy
metadata: {name: %[1]s}
spec:
  resourceSelectors: [{apiVersion: addons.mco-org.github.io/v1alpha1, kind: Addon, name: %[1]s}]
  placement:
%[6]s
`, name, repository, version, namespace, extra, placement)
}

// removeAddon deletes an Addon and its policy when the test ends.
func removeAddon(t *testing.T, name string) {
	t.Cleanup(func() {
		_, _ = kubectlErr("", "delete", "addon", name, "--ignore-not-found", "--wait=false")
		_, _ = kubectlErr("", "delete", "clusterpropagationpolicy", name, "--ignore-not-found", "--wait=false")
	})
}

// addonPhases is each cluster's phase and message in an Addon's status.
func addonPhases(ctx context.Context, t *testing.T, name string) (map[string]addonsv1alpha1.AddonClusterStatus, error) {
	a, err := framework.MCO(t).AddonsV1alpha1().Addons().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	out := map[string]addonsv1alpha1.AddonClusterStatus{}
	for _, c := range a.Status.Clusters {
		out[c.Name] = c
	}
	return out, nil
}

// waitAddon waits until an Addon's status gives exactly these clusters
// these phases, each message containing the text given after a '|' in
// the wanted phase ("Blocked|conflicts with").
func waitAddon(t *testing.T, name string, want map[string]string, timeout time.Duration) map[string]addonsv1alpha1.AddonClusterStatus {
	t.Helper()
	var last map[string]addonsv1alpha1.AddonClusterStatus
	eventually(t, timeout, fmt.Sprintf("add-on %s at %v", name, want), func(ctx context.Context) (bool, string) {
		got, err := addonPhases(ctx, t, name)
		if err != nil {
			return false, err.Error()
		}
		last = got
		ok := len(got) == len(want)
		for c, w := range want {
			phase, text, _ := strings.Cut(w, "|")
			if g, has := got[c]; !has || string(g.Phase) != phase || !strings.Contains(g.Message, text) {
				ok = false
			}
		}
		return ok, describeAddon(got)
	})
	return last
}

func describeAddon(clusters map[string]addonsv1alpha1.AddonClusterStatus) string {
	var parts []string
	for c, s := range clusters {
		parts = append(parts, fmt.Sprintf("%s: %s %q (chart %s, revision %d)", c, s.Phase, s.Message, s.ChartVersion, s.Revision))
	}
	sort.Strings(parts)
	return strings.Join(parts, "; ")
}

// waitAddonRollout waits until an Addon's rollout is in state at revision.
func waitAddonRollout(t *testing.T, name string, revision int64, state string, timeout time.Duration) {
	t.Helper()
	eventually(t, timeout, fmt.Sprintf("rollout of add-on %s at revision %d %s", name, revision, state), func(ctx context.Context) (bool, string) {
		ro, err := framework.MCO(t).RolloutV1alpha1().Rollouts("karmada-system").Get(ctx, names.Binding("Addon", name), metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		phases, _ := addonPhases(ctx, t, name)
		return ro.Status.CurrentRevision == revision && ro.Status.State() == state,
			fmt.Sprintf("revision %d %s: %+v; add-on %s", ro.Status.CurrentRevision, ro.Status.State(), ro.Status.Clusters, describeAddon(phases))
	})
}

var (
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgets     = schema.GroupVersionResource{Group: "e2e.mco-org.github.io", Version: "v1", Resource: "widgets"}
	crds        = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

// TestAddonInstall: an Addon placed on the production clusters installs
// its chart there with each cluster's values (the region from the
// Cluster, more replicas where an override names the cluster, a value a
// ClusterOverridePolicy patches into the Addon for member1), its CRD
// before its custom resource, its objects split over several Works, and
// nothing in member2; uninstalling removes what it installed but the CRD
// and the object marked to keep, as helm uninstall does.
func TestAddonInstall(t *testing.T) {
	framework.Parallel(t)
	repo := chartrepo.Serve(t, tinyChart(t, "1.0.0", nil))
	name, ns := "e2e-install", "e2e-addon-install"
	removeAddon(t, name)
	t.Cleanup(func() { _, _ = kubectlErr("", "delete", "clusteroverridepolicy", name, "--ignore-not-found") })
	start := time.Now()
	kubectl(t, `apiVersion: policy.karmada.io/v1alpha1
kind: ClusterOverridePolicy
metadata: {name: `+name+`}
spec:
  resourceSelectors: [{apiVersion: addons.mco-org.github.io/v1alpha1, kind: Addon, name: `+name+`}]
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders:
      plaintext: [{path: /spec/values/region, operator: replace, value: overridden}]
---
`+addonYAML(name, repo.URL, "1.0.0", ns, `  values: {region: "${cluster.region}", widget: true, bulk: 2}
  overrides: [{clusterNames: [member3], values: {replicaCount: 2}}]
`, "    clusterAffinity: {labelSelector: {matchLabels: {environment: production}}}"), "apply", "-f", "-")
	waitAddon(t, name, map[string]string{"member1": "Healthy", "member3": "Healthy"}, 3*time.Minute)
	t.Logf("kubectl apply of the Addon to Healthy on member1 and member3: %s", time.Since(start).Round(100*time.Millisecond))

	ctx := context.Background()
	for member, want := range map[string]string{"member1": "overridden/1", "member3": "cn-south/2"} {
		cm, err := memberClient(t, member).CoreV1().ConfigMaps(ns).Get(ctx, name+"-settings", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("%s: %v", member, err)
		}
		if got := cm.Data["region"] + "/" + cm.Data["replicas"]; got != want {
			t.Errorf("%s got region/replicas %s, want %s", member, got, want)
		}
	}
	if d := memberDeployment(t, "member3", ns, name); d == nil || d.Spec.Replicas == nil || *d.Spec.Replicas != 2 {
		t.Errorf("member3's Deployment: %+v", d)
	}
	if _, err := memberClient(t, "member2").CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("member2, not production, has the release namespace: %v", err)
	}
	if mode := kubectl(t, "", "get", "cluster", "member3", "-o", "jsonpath={.spec.syncMode}"); mode != "Pull" {
		t.Errorf("member3 is in %s mode: this test means to install on a Pull member too", mode)
	}
	waitInMembers(t, []string{"member1", "member3"}, []memberObject{
		{GVR: crds, Name: "widgets.e2e.mco-org.github.io"}, {GVR: widgets, Namespace: ns, Name: name},
	}, true)
	works, err := framework.MCO(t).WorkV1alpha1().Works(names.ExecutionSpace("member1")).List(ctx, metav1.ListOptions{
		LabelSelector: labels.Set{addon.AddonLabel: name}.String()})
	if err != nil {
		t.Fatal(err)
	}
	if len(works.Items) < 3 {
		t.Errorf("member1 has %d Works of the add-on, want the objects split over at least 3", len(works.Items))
	}
	eventually(t, 30*time.Second, "mco-controller-manager's add-on metrics", func(ctx context.Context) (bool, string) {
		resp, err := http.Get(framework.Env.MCO.ControllerManagerURL() + "/metrics")
		if err != nil {
			return false, err.Error()
		}
		defer resp.Body.Close()
		raw, _ := io.ReadAll(resp.Body)
		text := string(raw)
		want := `mco_addon_clusters{addon="` + name + `",phase="Healthy"} 2`
		return strings.Contains(text, want) && strings.Contains(text, "mco_addon_renders_total ") &&
			strings.Contains(text, `mco_addon_chart_fetches_total{result="success"}`), "want " + want
	})
	status := kubectl(t, "", "get", "addon", name)
	if !strings.Contains(status, "2/2") {
		t.Errorf("kubectl get addon shows no 2/2 healthy:\n%s", status)
	}

	kubectl(t, "", "delete", "addon", name)
	waitInMembers(t, []string{"member1", "member3"}, []memberObject{
		{GVR: deployments, Namespace: ns, Name: name}, {GVR: configMaps, Namespace: ns, Name: name + "-settings"},
		{GVR: configMaps, Namespace: ns, Name: name + "-bulk-1"}, {GVR: widgets, Namespace: ns, Name: name},
	}, false)
	waitInMembers(t, []string{"member1", "member3"}, []memberObject{
		{GVR: crds, Name: "widgets.e2e.mco-org.github.io"}, {GVR: configMaps, Namespace: ns, Name: name + "-kept"},
	}, true)
}

// TestAddonDependenciesConflictsAndRanges: an add-on waits, visibly and
// with nothing applied, for the add-on it depends on to be Healthy in the
// same cluster and installs once it is; one placed where its dependency is
// not waits there; one that conflicts with an installed add-on is Blocked
// there and installed elsewhere; one whose range excludes the members'
// version is Blocked with the version and the range.
func TestAddonDependenciesConflictsAndRanges(t *testing.T) {
	framework.Parallel(t)
	repo := chartrepo.Serve(t, tinyChart(t, "1.0.0", nil))
	base, dependent, rival, old := "e2e-dep-base", "e2e-dep-user", "e2e-dep-rival", "e2e-dep-old"
	for _, n := range []string{base, dependent, rival, old} {
		removeAddon(t, n)
	}
	on := func(clusters string) string { return "    clusterAffinity: {clusterNames: [" + clusters + "]}" }
	kubectl(t, addonYAML(base, repo.URL, "1.0.0", base, "  values: {neverReady: true}\n", on("member1"))+"---\n"+
		addonYAML(dependent, repo.URL, "1.0.0", dependent, "  dependsOn: [{name: "+base+"}]\n", on("member1, member2"))+"---\n"+
		addonYAML(rival, repo.URL, "1.0.0", rival, "  conflictsWith: [{name: "+base+"}]\n", on("member1, member2"))+"---\n"+
		addonYAML(old, repo.URL, "1.0.0", old, "  kubeVersion: \"<1.20.0\"\n", on("member2")), "apply", "-f", "-")

	waitAddon(t, base, map[string]string{"member1": "Installing|not healthy yet: Deployment"}, 2*time.Minute)
	waitAddon(t, dependent, map[string]string{
		"member1": "WaitingForDependency|waiting for add-on " + base + ", Installing there",
		"member2": "WaitingForDependency|which is not placed on cluster member2",
	}, time.Minute)
	waitAddon(t, rival, map[string]string{"member1": "Blocked|conflicts with add-on " + base, "member2": "Healthy"}, 2*time.Minute)
	waitAddon(t, old, map[string]string{"member2": `Blocked|outside spec.kubeVersion "<1.20.0"`}, time.Minute)
	for member, ns := range map[string]string{"member1": dependent, "member2": old} {
		if _, err := memberClient(t, member).CoreV1().Namespaces().Get(context.Background(), ns, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
			t.Errorf("%s has the namespace of %s, which may not be installed there: %v", member, ns, err)
		}
	}
	if _, err := memberClient(t, "member1").CoreV1().Namespaces().Get(context.Background(), rival, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("member1 has the namespace of %s, blocked there: %v", rival, err)
	}

	// The dependency turns healthy: the dependent installs where it waited.
	kubectl(t, "", "patch", "addon", base, "--type=merge", "-p", `{"spec":{"values":{"neverReady":false}}}`)
	waitAddon(t, base, map[string]string{"member1": "Healthy"}, 2*time.Minute)
	waitAddon(t, dependent, map[string]string{"member1": "Healthy", "member2": "WaitingForDependency|not placed"}, 2*time.Minute)

	// Removing the add-on it conflicts with lets the rival in.
	kubectl(t, "", "delete", "addon", base)
	waitAddon(t, rival, map[string]string{"member1": "Healthy", "member2": "Healthy"}, 2*time.Minute)
}

// TestAddonUpgradeInWaves: a new chart version that drops an object and
// changes a value goes to member2 first and pauses there (the dropped
// object deleted in member2 only); resumed, it reaches the rest; undo
// brings the previous chart version and values back everywhere and into
// the Addon's spec.
func TestAddonUpgradeInWaves(t *testing.T) {
	framework.Parallel(t)
	repo := chartrepo.Serve(t, tinyChart(t, "1.0.0", nil), tinyChart(t, "2.0.0", map[string]any{"extra": false}))
	name := "e2e-upgrade"
	removeAddon(t, name)
	t.Cleanup(func() { _, _ = kubectlErr("", "delete", "clusterrolloutpolicy", name, "--ignore-not-found") })
	kubectl(t, addonYAML(name, repo.URL, "1.0.0", name, "  values: {replicaCount: 1}\n",
		"    clusterAffinity: {clusterNames: [member1, member2, member3]}")+`---
apiVersion: rollout.mco-org.github.io/v1alpha1
kind: ClusterRolloutPolicy
metadata: {name: `+name+`}
spec:
  resourceSelectors: [{apiVersion: addons.mco-org.github.io/v1alpha1, kind: Addon, name: `+name+`}]
  waves:
  - {name: canary, clusterNames: [member2], healthyFor: 2s, pause: true}
  - {name: rest, rest: true}
`, "apply", "-f", "-")
	all := func(phase string) map[string]string {
		return map[string]string{"member1": phase, "member2": phase, "member3": phase}
	}
	waitAddon(t, name, all("Healthy"), 3*time.Minute)
	extra := func() []memberObject {
		return []memberObject{{GVR: configMaps, Namespace: name, Name: name + "-extra"}}
	}
	waitInMembers(t, members, extra(), true)

	kubectl(t, "", "patch", "addon", name, "--type=merge", "-p", `{"spec":{"chart":{"version":"2.0.0"},"values":{"replicaCount":2}}}`)
	waitAddonRollout(t, name, 2, "Paused", 2*time.Minute)
	got := waitAddon(t, name, all("Healthy"), time.Minute)
	if v := got["member2"].ChartVersion + "/" + got["member1"].ChartVersion + "/" + got["member3"].ChartVersion; v != "2.0.0/1.0.0/1.0.0" {
		t.Fatalf("paused after the canary, chart versions member2/member1/member3 are %s", v)
	}
	waitInMembers(t, []string{"member2"}, extra(), false)
	waitInMembers(t, []string{"member1", "member3"}, extra(), true)
	if d := memberDeployment(t, "member1", name, name); d == nil || *d.Spec.Replicas != 1 {
		t.Errorf("member1 has the new values before its wave: %+v", d)
	}

	kubectlMCO(t, "rollout", "resume", "addon/"+name).mustSucceed(t, "resume")
	waitAddonRollout(t, name, 2, "Complete", 2*time.Minute)
	waitInMembers(t, members, extra(), false)
	for _, m := range members {
		if d := memberDeployment(t, m, name, name); d == nil || *d.Spec.Replicas != 2 {
			t.Errorf("%s's Deployment after the rollout: %+v", m, d)
		}
	}

	kubectlMCO(t, "rollout", "undo", "addon/"+name).mustSucceed(t, "undo")
	waitAddonRollout(t, name, 1, "Complete", 2*time.Minute)
	if spec := kubectl(t, "", "get", "addon", name, "-o", "jsonpath={.spec.chart.version} {.spec.values.replicaCount}"); spec != "1.0.0 1" {
		t.Errorf("after undo the Addon's spec says %q, want chart 1.0.0 and replicaCount 1", spec)
	}
	waitInMembers(t, members, extra(), true)
	got = waitAddon(t, name, all("Healthy"), 2*time.Minute)
	for _, m := range members {
		if got[m].ChartVersion != "1.0.0" {
			t.Errorf("%s runs chart %s after undo", m, got[m].ChartVersion)
		}
		if d := memberDeployment(t, m, name, name); d == nil || *d.Spec.Replicas != 1 {
			t.Errorf("%s's Deployment after undo: %+v", m, d)
		}
	}
}

// TestAddonChartUnavailable: with its repository away, an add-on keeps
// running what it had where it runs and says why, and is Failed where
// nothing of it runs yet; back, the upgrade goes through. A chart whose
// archive does not match the digest the Addon names is refused. The same
// chart installs from an OCI registry.
func TestAddonChartUnavailable(t *testing.T) {
	framework.Parallel(t)
	repo := chartrepo.Serve(t, tinyChart(t, "1.0.0", nil))
	name, fromOCI, wrong := "e2e-away", "e2e-oci", "e2e-digest"
	for _, n := range []string{name, fromOCI, wrong} {
		removeAddon(t, n)
	}
	kubectl(t, addonYAML(name, repo.URL, "1.0.0", name, "", "    clusterAffinity: {clusterNames: [member1]}"), "apply", "-f", "-")
	waitAddon(t, name, map[string]string{"member1": "Healthy"}, 2*time.Minute)

	repo.SetDown(true)
	kubectl(t, "", "patch", "addon", name, "--type=merge", "-p", `{"spec":{"chart":{"version":"1.1.0"}}}`)
	kubectl(t, "", "patch", "clusterpropagationpolicy", name, "--type=merge", "-p", `{"spec":{"placement":{"clusterAffinity":{"clusterNames":["member1","member2"]}}}}`)
	waitAddon(t, name, map[string]string{
		"member1": "Healthy|keeps running what it had; the current revision could not be made: fetch chart tiny 1.1.0",
		"member2": "Failed|503",
	}, 2*time.Minute)
	if ready := kubectl(t, "", "get", "addon", name, "-o", `jsonpath={.status.conditions[?(@.type=="Ready")].reason}`); ready != addon.ReasonNotRenewed {
		t.Errorf("Ready's reason is %q, want %s", ready, addon.ReasonNotRenewed)
	}
	if d := memberDeployment(t, "member1", name, name); d == nil {
		t.Errorf("member1's Deployment is gone while the repository is away")
	}

	repo.SetDown(false)
	repo.Add(t, tinyChart(t, "1.1.0", nil))
	// member1 is Healthy all along (on 1.0.0): wait for the version too.
	eventually(t, 2*time.Minute, "both members Healthy on chart 1.1.0", func(ctx context.Context) (bool, string) {
		got, err := addonPhases(ctx, t, name)
		if err != nil {
			return false, err.Error()
		}
		for _, c := range []string{"member1", "member2"} {
			if s, ok := got[c]; !ok || s.Phase != "Healthy" || s.ChartVersion != "1.1.0" {
				return false, describeAddon(got)
			}
		}
		return true, ""
	})

	chartLine := func(yaml, extra string) string {
		return strings.Replace(yaml, `version: "1.0.0"}`, `version: "1.0.0", `+extra+`}`, 1)
	}
	kubectl(t, chartLine(addonYAML(fromOCI, repo.OCI, "1.0.0", fromOCI, "", "    clusterAffinity: {clusterNames: [member2]}"), "plainHTTP: true")+"---\n"+
		chartLine(addonYAML(wrong, repo.URL, "1.0.0", wrong, "", "    clusterAffinity: {clusterNames: [member2]}"), `digest: "sha256:`+strings.Repeat("0", 64)+`"`),
		"apply", "-f", "-")
	waitAddon(t, fromOCI, map[string]string{"member2": "Healthy"}, 2*time.Minute)
	waitAddon(t, wrong, map[string]string{"member2": "Failed|digest"}, time.Minute)
}

// TestKubectlMCOAddonInstall: `kubectl mco addon install` writes an Addon
// and its policy in one step, as a newcomer expects; `status` shows each
// cluster and succeeds once Ready; `uninstall` takes it out of every
// cluster.
func TestKubectlMCOAddonInstall(t *testing.T) {
	framework.Parallel(t)
	repo := chartrepo.Serve(t, tinyChart(t, "1.0.0", nil))
	name := "e2e-cli"
	removeAddon(t, name)
	kubectlMCO(t, "addon", "install", name, "--repo", repo.URL, "--chart", "tiny", "--version", "1.0.0", "--namespace", name,
		"--set", "replicaCount=2", "--set", "region=${cluster.region}", "--selector", "environment=production").mustSucceed(t, "install")
	eventually(t, 3*time.Minute, "kubectl mco addon status succeeds", func(ctx context.Context) (bool, string) {
		r := kubectlMCO(t, "addon", "status", name)
		return r.code == 0, r.stdout + r.stderr
	})
	status := kubectlMCO(t, "addon", "status", name)
	for _, want := range []string{"Ready: True", "member1", "member3", "Healthy", "1.0.0"} {
		if !strings.Contains(status.stdout, want) {
			t.Errorf("status lacks %q:\n%s", want, status.stdout)
		}
	}
	cm, err := memberClient(t, "member3").CoreV1().ConfigMaps(name).Get(context.Background(), name+"-settings", metav1.GetOptions{})
	if err != nil || cm.Data["region"] != "cn-south" || cm.Data["replicas"] != "2" {
		t.Errorf("member3's settings: %v %v", cm, err)
	}
	kubectlMCO(t, "addon", "uninstall", name).mustSucceed(t, "uninstall")
	waitInMembers(t, []string{"member1", "member3"}, []memberObject{{GVR: deployments, Namespace: name, Name: name}}, false)
	if _, err := kubectlErr("", "get", "clusterpropagationpolicy", name); err == nil {
		t.Errorf("the policy install wrote is still there after uninstall")
	}
}
