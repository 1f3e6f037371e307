package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/test/e2e/framework"
)

// TestDependentOverrides: a template whose policy names an OverridePolicy
// in dependentOverrides reaches no member until that OverridePolicy
// exists, and then its first copy already carries the override; a
// template propagated beside it meanwhile shows the members are served.
func TestDependentOverrides(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-dependent-overrides")
	kubectl(t, `apiVersion: v1
kind: ConfigMap
metadata: {name: settings, namespace: `+ns+`}
data: {registry: docker.io}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: probe, namespace: `+ns+`}
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: settings, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
  dependentOverrides: [mirror]
---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: probe, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: probe}]
  placement: {clusterAffinity: {clusterNames: [member1]}}
`, "apply", "-f", "-")
	waitInMembers(t, []string{"member1"}, []memberObject{{GVR: configMaps, Namespace: ns, Name: "probe"}}, true)
	ctx := context.Background()
	if _, err := memberClient(t, "member1").CoreV1().ConfigMaps(ns).Get(ctx, "settings", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Fatalf("the ConfigMap reached member1 before its dependent override existed: %v", err)
	}
	if _, err := framework.MCO(t).WorkV1alpha2().ResourceBindings(ns).Get(ctx, "settings-configmap", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("a binding was made while the dependent override is missing: %v", err)
	}

	start := time.Now()
	kubectl(t, `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: mirror, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: v1, kind: ConfigMap, name: settings}]
  overrideRules:
  - overriders:
      plaintext: [{path: /data/registry, operator: replace, value: mirror.example.com}]
`, "apply", "-f", "-")
	var first string
	eventually(t, 30*time.Second, "the ConfigMap in member1", func(ctx context.Context) (bool, string) {
		cm, err := memberClient(t, "member1").CoreV1().ConfigMaps(ns).Get(ctx, "settings", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		if first == "" {
			first = cm.Data["registry"]
		}
		return true, ""
	})
	if first != "mirror.example.com" {
		t.Errorf("the first copy in member1 has registry %q, want the override's", first)
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("the template went on %s after its override appeared: it should be queued by the override's creation", d.Round(time.Second))
	}
	t.Logf("%s from the OverridePolicy's creation to the overridden copy in member1", fmt.Sprint(time.Since(start).Round(100*time.Millisecond)))
}
