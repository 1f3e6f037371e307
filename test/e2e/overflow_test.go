package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mco-org/mco/test/e2e/framework"
)

// TestOverflowAffinities: a Deployment whose primary group (member2, one
// node of 4 CPUs) cannot hold it spills into its overflow group (member1),
// and comes back to member2 alone when scaled down.
func TestOverflowAffinities(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-overflow")
	kubectl(t, deploymentYAML(ns, "web", 6, "1")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    replicaScheduling: {replicaSchedulingType: Divided, replicaDivisionPreference: Aggregated}
    clusterAffinities:
    - affinityName: primary
      clusterNames: [member2]
      overflowAffinities:
      - {affinityName: spill, clusterNames: [member1]}
`, "apply", "-f", "-")
	eventually(t, 90*time.Second, "6 replicas over member2 and member1", func(ctx context.Context) (bool, string) {
		m := replicasIn(ctx, t, ns, "web", members)
		return m["member2"] > 0 && m["member1"] > 0 && m["member2"]+m["member1"] == 6 && m["member3"] == -1, fmt.Sprint(m)
	})
	kubectl(t, "", "-n", ns, "scale", "deploy/web", "--replicas=1")
	waitReplicas(t, ns, "web", map[string]int32{"member2": 1, "member1": -1, "member3": -1})
}
