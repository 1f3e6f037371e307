package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/mco-org/mco/test/e2e/framework"
)

// TestLazyActivation: a policy with activationPreference Lazy reaches a
// template only at the template's next change: moved from member1 to
// member2, it leaves the Deployment on member1 until the Deployment is
// edited, then it moves.
func TestLazyActivation(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-lazy")
	policy := func(cluster string) string {
		return `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: lazy, namespace: ` + ns + `}
spec:
  activationPreference: Lazy
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [` + cluster + `]}
`
	}
	kubectl(t, policy("member1")+"---\n"+deploymentYAML(ns, "web", 1, "10m"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": -1})

	kubectl(t, policy("member2"), "apply", "-f", "-")
	holds(t, 5*time.Second, "the Deployment stays on member1 while it is not edited", func(ctx context.Context) (bool, string) {
		m := replicasIn(ctx, t, ns, "web", []string{"member1", "member2"})
		return m["member1"] == 1 && m["member2"] == -1, fmt.Sprint(m)
	})

	kubectl(t, "", "-n", ns, "annotate", "deploy/web", "example.com/touched=yes")
	waitReplicas(t, ns, "web", map[string]int32{"member1": -1, "member2": 1})
}
