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

// TestCrashSafety: mco-controller-manager killed with SIGKILL while it
// propagates 200 Deployments, then started again: every member ends with
// exactly the expected objects, none missing, none extra, none duplicated.
func TestCrashSafety(t *testing.T) {
	framework.Serial(t, "kills and restarts mco-controller-manager")
	const count = 200
	ns := namespace(t, "e2e-crash")
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: all, namespace: %s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
`, ns)
	for i := 0; i < count; i++ {
		// No replicas: the members' controllers and kwok stay idle, so only
		// mco's path is exercised.
		fmt.Fprintf(&b, "---\n%s", deploymentYAML(ns, fmt.Sprintf("app-%03d", i), 0, "10m"))
	}
	kubectl(t, b.String(), "apply", "-f", "-")

	cm := framework.Env.MCO.ControllerManager
	eventually(t, 60*time.Second, "propagation under way", func(ctx context.Context) (bool, string) {
		n := memberDeploymentCounts(t, ns)["member1"]
		return n >= 10, fmt.Sprintf("%d Deployments in member1", n)
	})
	if err := cm.Kill(); err != nil {
		t.Fatal(err)
	}
	counts := memberDeploymentCounts(t, ns)
	t.Logf("killed mco-controller-manager with SIGKILL; members had %v of %d Deployments", counts, count)
	if err := cm.Restart(); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	eventually(t, 3*time.Minute, "every member has exactly the 200 Deployments", func(ctx context.Context) (bool, string) {
		got := memberDeploymentCounts(t, ns)
		for _, m := range members {
			if got[m] != count {
				return false, fmt.Sprintf("members have %v", got)
			}
		}
		return true, ""
	})
	t.Logf("members complete %s after the restart", time.Since(start).Round(time.Millisecond))
	for _, m := range members {
		list, err := memberClient(t, m).AppsV1().Deployments(ns).List(context.Background(), metav1.ListOptions{})
		if err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for _, d := range list.Items {
			if seen[d.Name] || !strings.HasPrefix(d.Name, "app-") || *d.Spec.Replicas != 0 {
				t.Errorf("%s: unexpected Deployment %s (replicas %d)", m, d.Name, *d.Spec.Replicas)
			}
			seen[d.Name] = true
		}
	}
	kubectl(t, "", "-n", ns, "delete", "deploy", "--all", "--wait=false")
	eventually(t, 3*time.Minute, "every member is emptied", func(ctx context.Context) (bool, string) {
		got := memberDeploymentCounts(t, ns)
		for _, m := range members {
			if got[m] != 0 {
				return false, fmt.Sprintf("members have %v", got)
			}
		}
		return true, ""
	})
}

func memberDeploymentCounts(t *testing.T, ns string) map[string]int {
	out := map[string]int{}
	for _, m := range members {
		list, err := memberClient(t, m).AppsV1().Deployments(ns).List(context.Background(), metav1.ListOptions{})
		if err == nil {
			out[m] = len(list.Items)
		}
	}
	return out
}
