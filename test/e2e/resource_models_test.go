package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/test/e2e/framework"
)

// TestResourceModels: every member counts its nodes per resource model
// grade, and a replica of 10 CPUs, which no node (8 CPUs at most) can
// hold, is placed nowhere though member3 has 24 CPUs in all; at 3 CPUs
// it is placed.
func TestResourceModels(t *testing.T) {
	framework.Parallel(t)
	eventually(t, time.Minute, "allocatableModelings count every node once", func(ctx context.Context) (bool, string) {
		for name, nodes := range map[string]int{"member1": 2, "member2": 1, "member3": 3} {
			c, err := framework.MCO(t).ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			if c.Status.ResourceSummary == nil || len(c.Status.ResourceSummary.AllocatableModelings) != 9 {
				return false, fmt.Sprintf("%s: resource summary %+v", name, c.Status.ResourceSummary)
			}
			sum := 0
			for _, m := range c.Status.ResourceSummary.AllocatableModelings {
				sum += m.Count
			}
			if sum != nodes {
				return false, fmt.Sprintf("%s: %d nodes counted, want %d: %+v", name, sum, nodes, c.Status.ResourceSummary.AllocatableModelings)
			}
		}
		return true, ""
	})

	ns := namespace(t, "e2e-models")
	kubectl(t, deploymentYAML(ns, "big", 1, "10")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: big, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: big}]
  placement:
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}
`, "apply", "-f", "-")
	eventually(t, time.Minute, "a replica of 10 CPUs is unschedulable", func(ctx context.Context) (bool, string) {
		b, err := framework.MCO(t).WorkV1alpha2().ResourceBindings(ns).Get(ctx, "big-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, c := range b.Status.Conditions {
			if c.Type == "Scheduled" && c.Status == metav1.ConditionFalse && c.Reason == "Unschedulable" &&
				strings.Contains(c.Message, "fewer than the 1 needed") && len(b.Spec.Clusters) == 0 {
				return true, ""
			}
		}
		return false, bindingSummary(ctx, framework.MCO(t), ns, "big-deployment")
	})
	waitReplicas(t, ns, "big", map[string]int32{"member1": -1, "member2": -1, "member3": -1})

	kubectl(t, "", "-n", ns, "set", "resources", "deploy/big", "--requests=cpu=3")
	eventually(t, time.Minute, "a replica of 3 CPUs is placed", func(ctx context.Context) (bool, string) {
		m := replicasIn(ctx, t, ns, "big", members)
		placed := 0
		for _, r := range m {
			if r == 1 {
				placed++
			}
		}
		return placed == 1, fmt.Sprint(m)
	})
}
