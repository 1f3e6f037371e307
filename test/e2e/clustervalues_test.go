package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestClusterValues: override policies carrying mco's cluster-values
// annotation take per-cluster values from the Cluster itself: a ConfigMap
// value from ${cluster.region}, an image registry from a label. A cluster
// without the label is reported on the binding and gets nothing; a label
// change re-renders that cluster's Work only; an unknown placeholder is
// refused when the policy is written.
func TestClusterValues(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-cluster-values")
	mirrors := map[string]string{"member1": "mirror.north.example", "member3": "mirror.south.example"}
	for m, mirror := range mirrors {
		kubectl(t, "", "label", "cluster", m, "mirror="+mirror, "--overwrite")
		t.Cleanup(func() { _, _ = kubectlErr("", "label", "cluster", m, "mirror-") })
	}
	// The policies first: a cluster they fail for must never have had a Work.
	kubectl(t, `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: region
  namespace: `+ns+`
  annotations: {policy.mco-org.github.io/cluster-values: "true"}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  overrideRules:
  - overriders:
      plaintext: [{path: /data/region, operator: replace, value: "${cluster.region}"}]
---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: mirror
  namespace: `+ns+`
  annotations: {policy.mco-org.github.io/cluster-values: "true"}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: app}]
  overrideRules:
  - overriders:
      imageOverrider: [{component: Registry, operator: replace, value: "${cluster.labels['mirror']}"}]
`, "apply", "-f", "-")
	kubectl(t, deploymentYAML(ns, "app", 1, "10m")+`---
apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: `+ns+`}
data: {region: unset}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: app, namespace: `+ns+`}
spec:
  resourceSelectors:
  - {apiVersion: apps/v1, kind: Deployment, name: app}
  - {apiVersion: v1, kind: ConfigMap, name: settings}
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
`, "apply", "-f", "-")

	waitRegions(t, ns, map[string]string{"member1": "cn-north", "member2": "cn-north", "member3": "cn-south"})
	waitImages(t, ns, map[string]string{"member1": "mirror.north.example/nginx:1.27", "member3": "mirror.south.example/nginx:1.27"})
	waitReplicas(t, ns, "app", map[string]int32{"member2": -1})

	_, mco := mcoClients(t)
	eventually(t, 30*time.Second, "the binding says member2 has no mirror label", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "app-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, c := range b.Status.Conditions {
			if c.Type == "OverridesApplied" && c.Status == metav1.ConditionFalse &&
				strings.Contains(c.Message, `cluster member2`) && strings.Contains(c.Message, `has no label "mirror"`) {
				return true, ""
			}
		}
		return false, fmt.Sprintf("conditions %+v", b.Status.Conditions)
	})

	// A label change re-renders member3's Work; member1's stays as it was.
	// The binding controller renders every cluster of the binding in one
	// pass, so once member3's Work carries the new mirror, member1's Work
	// has been decided too: its generation tells whether it was rewritten.
	work := func(ctx context.Context, member string) (*workv1alpha1.Work, error) {
		return mco.WorkV1alpha1().Works(names.ExecutionSpace(member)).Get(ctx, names.Work("Deployment", "app", ns), metav1.GetOptions{})
	}
	before, err := work(context.Background(), "member1")
	if err != nil {
		t.Fatal(err)
	}
	kubectl(t, "", "label", "cluster", "member3", "mirror=mirror2.south.example", "--overwrite")
	eventually(t, 30*time.Second, "member3's Work carries the new mirror", func(ctx context.Context) (bool, string) {
		w, err := work(ctx, "member3")
		if err != nil {
			return false, err.Error()
		}
		return strings.Contains(string(w.Spec.Workload.Manifests[0].Raw), "mirror2.south.example/nginx"), "not yet"
	})
	if after, err := work(context.Background(), "member1"); err != nil || after.Generation != before.Generation {
		t.Errorf("member1's Work was rewritten: generation %d -> %v (%v)", before.Generation, after, err)
	}
	waitImages(t, ns, map[string]string{"member3": "mirror2.south.example/nginx:1.27", "member1": "mirror.north.example/nginx:1.27"})

	// Giving member2 the label lets its Deployment through.
	kubectl(t, "", "label", "cluster", "member2", "mirror=mirror.west.example", "--overwrite")
	t.Cleanup(func() { _, _ = kubectlErr("", "label", "cluster", "member2", "mirror-") })
	waitImages(t, ns, map[string]string{"member2": "mirror.west.example/nginx:1.27"})

	out, err := kubectlErr(`apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata:
  name: zone
  namespace: `+ns+`
  annotations: {policy.mco-org.github.io/cluster-values: "true"}
spec:
  overrideRules:
  - overriders:
      annotationsOverrider: [{operator: add, value: {zone: "${cluster.zone}"}}]
`, "apply", "-f", "-")
	if err == nil || !strings.Contains(out, `spec.overrideRules[0].overriders.annotationsOverrider[0].value[zone]`) ||
		!strings.Contains(out, "unknown placeholder ${cluster.zone}") {
		t.Errorf("an unknown placeholder was not refused by field: err=%v\n%s", err, out)
	}
}

// waitRegions waits until the settings ConfigMap holds each member's value.
func waitRegions(t *testing.T, ns string, want map[string]string) {
	t.Helper()
	for m, region := range want {
		eventually(t, 90*time.Second, fmt.Sprintf("settings in %s says %s", m, region), func(ctx context.Context) (bool, string) {
			cm, err := memberClient(t, m).CoreV1().ConfigMaps(ns).Get(ctx, "settings", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			return cm.Data["region"] == region, fmt.Sprintf("data %v", cm.Data)
		})
	}
}

// waitImages waits until the app Deployment in each member runs the image.
func waitImages(t *testing.T, ns string, want map[string]string) {
	t.Helper()
	for m, image := range want {
		eventually(t, 90*time.Second, fmt.Sprintf("app in %s runs %s", m, image), func(ctx context.Context) (bool, string) {
			d, err := memberClient(t, m).AppsV1().Deployments(ns).Get(ctx, "app", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			got := d.Spec.Template.Spec.Containers[0].Image
			return got == image, "image " + got
		})
	}
}
