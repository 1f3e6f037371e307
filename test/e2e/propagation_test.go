package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/test/e2e/framework"
)

// staticWeightPolicy places a Deployment on member1 and member2 with
// static weights.
func staticWeightPolicy(ns, name string, w1, w2 int) string {
	return weightedPolicy(ns, name, "member1", "member2", w1, w2, "")
}

// weightedPolicy divides a Deployment's replicas over two clusters by
// static weights; extra is more of the spec (indented two spaces).
func weightedPolicy(ns, name, c1, c2 string, w1, w2 int, extra string) string {
	return fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: %[2]s}]
%[7]s  placement:
    clusterAffinity: {clusterNames: [%[3]s, %[4]s]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - {targetCluster: {clusterNames: [%[3]s]}, weight: %[5]d}
        - {targetCluster: {clusterNames: [%[4]s]}, weight: %[6]d}
`, ns, name, c1, c2, w1, w2, extra)
}

// TestStaticWeightPropagation: a plain Deployment and a PropagationPolicy
// applied with kubectl reach the members with their replica shares, the
// summed status shows on mco, and scaling, reweighting and deletion follow.
func TestStaticWeightPropagation(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-static")
	kubectl(t, deploymentYAML(ns, "web", 6, "100m")+"---\n"+staticWeightPolicy(ns, "web", 2, 1), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 4, "member2": 2, "member3": -1})

	start := time.Now()
	kubectl(t, "", "-n", ns, "rollout", "status", "deploy/web", "--timeout=120s")
	t.Logf("rollout status returned after %s", time.Since(start).Round(time.Millisecond))
	got := kubectl(t, "", "-n", ns, "get", "deploy", "web", "-o", "jsonpath={.status.replicas}/{.status.readyReplicas}/{.status.availableReplicas}/{.status.updatedReplicas}")
	if got != "6/6/6/6" {
		t.Errorf("status on mco (replicas/ready/available/updated) = %s, want 6/6/6/6", got)
	}
	if out := kubectl(t, "", "-n", ns, "get", "deploy", "web"); !strings.Contains(out, "6/6") {
		t.Errorf("kubectl get deploy on mco:\n%s", out)
	}
	eventually(t, 20*time.Second, "kubectl describe shows the propagation events", func(context.Context) (bool, string) {
		out, _ := kubectlErr("", "-n", ns, "describe", "deploy", "web")
		for _, want := range []string{"ApplyPolicySucceed", "ScheduleBindingSucceed", "member1 (4), member2 (2)", "Wrote the works of clusters member1, member2"} {
			if !strings.Contains(out, want) {
				return false, "no " + want + " in:\n" + out
			}
		}
		return true, ""
	})

	kubectl(t, "", "-n", ns, "scale", "deploy/web", "--replicas=9")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 6, "member2": 3, "member3": -1})

	kubectl(t, staticWeightPolicy(ns, "web", 1, 2), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 3, "member2": 6, "member3": -1})

	kubectl(t, "", "-n", ns, "delete", "deploy", "web")
	waitReplicas(t, ns, "web", map[string]int32{"member1": -1, "member2": -1, "member3": -1})
	_, mco := mcoClients(t)
	eventually(t, 30*time.Second, "binding and works removed", func(ctx context.Context) (bool, string) {
		_, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "web-deployment", metav1.GetOptions{})
		if !apierrors.IsNotFound(err) {
			return false, fmt.Sprintf("binding: %v", err)
		}
		for _, m := range members {
			_, err := mco.WorkV1alpha1().Works(names.ExecutionSpace(m)).Get(ctx, names.Work("Deployment", "web", ns), metav1.GetOptions{})
			if !apierrors.IsNotFound(err) {
				return false, fmt.Sprintf("work in %s: %v", m, err)
			}
		}
		return true, ""
	})
}

// TestDuplicatedAndDynamicWeight: Duplicated sends every replica to every
// cluster; dynamic weight divides by what each cluster has room for.
func TestDuplicatedAndDynamicWeight(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-division")
	kubectl(t, deploymentYAML(ns, "dup", 3, "100m")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: dup, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: dup}]
  placement:
    replicaScheduling: {replicaSchedulingType: Duplicated}
`, "apply", "-f", "-")
	waitReplicas(t, ns, "dup", map[string]int32{"member1": 3, "member2": 3, "member3": 3})
	// Duplicated, the members together run 3 times the template's count,
	// so rollout status (which compares with spec.replicas) is no measure.
	eventually(t, 90*time.Second, "9 ready replicas on mco", func(context.Context) (bool, string) {
		got, _ := kubectlErr("", "-n", ns, "get", "deploy", "dup", "-o", "jsonpath={.status.readyReplicas}")
		return got == "9", "ready replicas on mco = " + got + ", want 9 (3 in each of 3 members)"
	})

	// Nodes: member1 2x8 cpu, member2 1x4 cpu, member3 3x8 cpu. One cpu a
	// replica: room for at most 16, 4 and 24 replicas. The room counts node
	// by node at each node's resource-model grade (Karmada's estimate), and
	// a node other tests use drops from 8 to 4 CPUs' worth: member2 always
	// has the least room, while member1 and member3 trade places with the
	// load of the tests that run alongside.
	kubectl(t, deploymentYAML(ns, "dyn", 11, "1")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: dyn, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: dyn}]
  placement:
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}
`, "apply", "-f", "-")
	eventually(t, 90*time.Second, "dynamic weight follows capacity", func(ctx context.Context) (bool, string) {
		got := memberReplicas(ctx, t, ns, "dyn")
		sum := int32(0)
		for _, r := range got {
			if r > 0 {
				sum += r
			}
		}
		ok := sum == 11 && got["member3"] > got["member2"] && got["member1"] > got["member2"]
		return ok, fmt.Sprintf("members have %v", got)
	})
}

// TestOverridePolicy: per-cluster image registries, a label per cluster and
// a plaintext replace, applied in Karmada's order.
func TestOverridePolicy(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-override")
	kubectl(t, deploymentYAML(ns, "app", 2, "100m")+`---
`+duplicatedPolicy(ns, "app", "member1, member3")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: by-name, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: app}]
  overrideRules:
  - targetCluster: {clusterNames: [member1]}
    overriders:
      imageOverrider: [{component: Registry, operator: replace, value: registry.north.example.com}]
      labelsOverrider: [{operator: add, value: {cluster: member1}}]
  - targetCluster: {clusterNames: [member3]}
    overriders:
      imageOverrider: [{component: Registry, operator: replace, value: registry.south.example.com}]
      labelsOverrider: [{operator: add, value: {cluster: member3}}]
      plaintext: [{path: /spec/replicas, operator: replace, value: 5}]
---
# Applies before by-name (a kind-only selector is less specific), so by-name
# has the last word on the replica count in member3.
apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: all-deployments, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  overrideRules:
  - overriders:
      plaintext: [{path: /spec/replicas, operator: replace, value: 4}]
`, "apply", "-f", "-")
	waitReplicas(t, ns, "app", map[string]int32{"member1": 4, "member2": -1, "member3": 5})
	for member, registry := range map[string]string{"member1": "registry.north.example.com", "member3": "registry.south.example.com"} {
		d := memberDeployment(t, member, ns, "app")
		if img := d.Spec.Template.Spec.Containers[0].Image; img != registry+"/nginx:1.27" {
			t.Errorf("%s runs image %s, want %s/nginx:1.27", member, img, registry)
		}
		if d.Labels["cluster"] != member {
			t.Errorf("%s: label cluster=%q, want %q", member, d.Labels["cluster"], member)
		}
	}
}

// TestMalformedOverride: an override that cannot be applied for one
// cluster writes nothing there, says which policy and rule in the
// binding's condition, and does not hold back the other clusters.
func TestMalformedOverride(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-bad-override")
	// The override goes first: one applied with the workload may reach
	// the binding controller after the first Works are written, and then
	// member3's stays as it was, without the override (as in Karmada,
	// whose answer is the policy's dependentOverrides).
	kubectl(t, `apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: broken, namespace: `+ns+`}
spec:
  overrideRules:
  - targetCluster: {clusterNames: [member3]}
    overriders:
      plaintext: [{path: /spec/no/such/field, operator: replace, value: 1}]
`, "apply", "-f", "-")
	kubectl(t, deploymentYAML(ns, "app", 1, "100m")+`---
`+duplicatedPolicy(ns, "app", "member1, member3"), "apply", "-f", "-")
	waitReplicas(t, ns, "app", map[string]int32{"member1": 1, "member3": -1})
	_, mco := mcoClients(t)
	eventually(t, 30*time.Second, "binding names the broken rule", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "app-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, c := range b.Status.Conditions {
			if c.Type == "OverridesApplied" && c.Status == metav1.ConditionFalse &&
				strings.Contains(c.Message, "member3") && strings.Contains(c.Message, "overridepolicy "+ns+"/broken rule 0") {
				return true, ""
			}
		}
		return false, fmt.Sprintf("conditions %+v", b.Status.Conditions)
	})
}
