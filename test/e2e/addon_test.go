package e2e

import (
	"context"
	"fmt"
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

var (
	configMaps  = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	deployments = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	widgets     = schema.GroupVersionResource{Group: "e2e.mco-org.github.io", Version: "v1", Resource: "widgets"}
	crds        = schema.GroupVersionResource{Group: "apiextensions.k8s.io", Version: "v1", Resource: "customresourcedefinitions"}
)

// TestAddonInstall: an Addon placed on the production clusters installs
// its chart there with each cluster's values (the region from the
// Cluster, more replicas where an override names the cluster), its CRD
// before its custom resource, its objects split over several Works, and
// nothing in member2; uninstalling removes what it installed but the CRD
// and the object marked to keep, as helm uninstall does.
func TestAddonInstall(t *testing.T) {
	framework.Parallel(t)
	repo := chartrepo.Serve(t, tinyChart(t, "1.0.0", nil))
	name, ns := "e2e-install", "e2e-addon-install"
	removeAddon(t, name)
	start := time.Now()
	kubectl(t, addonYAML(name, repo.URL, "1.0.0", ns, `  values: {region: "${cluster.region}", widget: true, bulk: 2}
  overrides: [{clusterNames: [member3], values: {replicaCount: 2}}]
`, "    clusterAffinity: {labelSelector: {matchLabels: {environment: production}}}"), "apply", "-f", "-")
	waitAddon(t, name, map[string]string{"member1": "Healthy", "member3": "Healthy"}, 3*time.Minute)
	t.Logf("kubectl apply of the Addon to Healthy on member1 and member3: %s", time.Since(start).Round(100*time.Millisecond))

	ctx := context.Background()
	for member, want := range map[string]string{"member1": "cn-north/1", "member3": "cn-south/2"} {
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
