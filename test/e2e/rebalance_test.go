package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/test/e2e/framework"
)

// rebalanceAfterFailover (TestMember2Outage): replicas divided by
// available capacity over member1 and member2 all move to member1 when
// member2 fails; when member2 is back nothing moves by itself (the
// placement is kept, as in Karmada); kubectl mco rebalance asks for a
// fresh decision, which spreads them over both clusters again. 20 small
// replicas, so that member2 gets a share however busy the other tests have
// left it.
func rebalanceAfterFailover(t *testing.T) (during, after func(t *testing.T)) {
	ns := namespace(t, "e2e-rebalance-failover")
	kubectl(t, deploymentYAML(ns, "web", 20, "10m")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference: {dynamicWeight: AvailableReplicas}
`, "apply", "-f", "-")
	spread := func(ctx context.Context, t *testing.T) (map[string]int32, bool) {
		got := memberReplicas(ctx, t, ns, "web")
		return got, got["member1"] > 0 && got["member2"] > 0 && got["member1"]+got["member2"] == 20
	}
	eventually(t, 90*time.Second, "web spread over member1 and member2", func(ctx context.Context) (bool, string) {
		got, ok := spread(ctx, t)
		return ok, fmt.Sprint(got)
	})
	initial, _ := spread(context.Background(), t)

	during = func(t *testing.T) {
		waitReplicas(t, ns, "web", map[string]int32{"member1": 20})
	}
	after = func(t *testing.T) {
		_, mco := mcoClients(t)
		eventually(t, 90*time.Second, "eviction over", func(ctx context.Context) (bool, string) {
			b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "web-deployment", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			// The end of the eviction is a spec change the scheduler decides on
			// again: wait until it has, then the placement must still be
			// member1's alone.
			return len(b.Spec.GracefulEvictionTasks) == 0 && b.Status.SchedulerObservedGeneration == b.Generation,
				fmt.Sprintf("tasks %v, generation %d observed %d", b.Spec.GracefulEvictionTasks, b.Generation, b.Status.SchedulerObservedGeneration)
		})
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(context.Background(), "web-deployment", metav1.GetOptions{})
		if err != nil || len(b.Spec.Clusters) != 1 || b.Spec.Clusters[0].Name != "member1" {
			t.Fatalf("the placement moved by itself after member2 came back: %v %v", err, b.Spec.Clusters)
		}

		r := kubectlMCO(t, "rebalance", "deployment/web", "-n", ns, "--name", "e2e-after-failover")
		r.mustSucceed(t, "rebalance")
		if want := "deployment/web (namespace " + ns + ") rebalanced: member1 "; !strings.Contains(r.stdout, want) ||
			!strings.Contains(r.stdout, ", member2 ") {
			t.Errorf("rebalance printed %q, want a line with member1 and member2", r.stdout)
		}
		eventually(t, 90*time.Second, "web spread again", func(ctx context.Context) (bool, string) {
			got, ok := spread(ctx, t)
			return ok, fmt.Sprint(got)
		})
		again, _ := spread(context.Background(), t)
		t.Logf("placement before the failover %v, after the rebalance %v", initial, again)
		if out := kubectl(t, "", "get", "workloadrebalancer", "e2e-after-failover", "-o",
			"jsonpath={.status.observedWorkloads[0].result}"); out != "Successful" {
			t.Errorf("rebalancer result %q, want Successful", out)
		}
	}
	return during, after
}

// TestRebalanceMissingWorkload: a WorkloadRebalancer, applied as Karmada
// users write it, reports a workload without a binding as Failed
// (ReferencedBindingNotFound), rebalances the one that has one, and is
// deleted after its TTL; kubectl mco rebalance of a missing workload
// says why and fails.
func TestRebalanceMissingWorkload(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-rebalance")
	kubectl(t, deploymentYAML(ns, "web", 2, "10m")+"---\n"+staticWeightPolicy(ns, "web", 1, 1), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1})

	kubectl(t, `apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata: {name: e2e-mixed}
spec:
  ttlSecondsAfterFinished: 5
  workloads:
  - {apiVersion: apps/v1, kind: Deployment, name: web, namespace: `+ns+`}
  - {apiVersion: apps/v1, kind: Deployment, name: missing, namespace: `+ns+`}
`, "apply", "-f", "-")
	_, mco := mcoClients(t)
	eventually(t, 30*time.Second, "results recorded", func(ctx context.Context) (bool, string) {
		r, err := mco.AppsV1alpha1().WorkloadRebalancers().Get(ctx, "e2e-mixed", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		st := r.Status
		ok := st.FinishTime != nil && len(st.ObservedWorkloads) == 2 &&
			st.ObservedWorkloads[0].Result == "Successful" &&
			st.ObservedWorkloads[1].Result == "Failed" && st.ObservedWorkloads[1].Reason == "ReferencedBindingNotFound"
		return ok, fmt.Sprintf("status %+v", st)
	})
	b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(context.Background(), "web-deployment", metav1.GetOptions{})
	if err != nil || b.Spec.RescheduleTriggeredAt == nil {
		t.Fatalf("web's binding asks for no fresh decision: %v %v", err, b)
	}
	if out := kubectl(t, "", "describe", "workloadrebalancer", "e2e-mixed"); !strings.Contains(out, "WorkloadRebalanceFailed") {
		t.Errorf("no WorkloadRebalanceFailed event in describe:\n%s", out)
	}
	eventually(t, 30*time.Second, "deleted after its TTL", func(ctx context.Context) (bool, string) {
		_, err := mco.AppsV1alpha1().WorkloadRebalancers().Get(ctx, "e2e-mixed", metav1.GetOptions{})
		return apierrors.IsNotFound(err), fmt.Sprint(err)
	})
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1})

	r := kubectlMCO(t, "rebalance", "deployment/missing", "-n", ns)
	if r.code == 0 || !strings.Contains(r.stdout, "deployment/missing (namespace "+ns+") failed: ReferencedBindingNotFound") ||
		!strings.Contains(r.stderr, "1 of 1 workloads could not be rebalanced") {
		t.Errorf("rebalance of a missing workload: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}

	out, err := kubectlErr(`apiVersion: apps.karmada.io/v1alpha1
kind: WorkloadRebalancer
metadata: {name: e2e-bad}
spec: {workloads: [{kind: Deployment, name: web}], ttlSecondsAfterFinished: -1}
`, "apply", "-f", "-")
	if err == nil || !strings.Contains(out, "spec.workloads[0].apiVersion: Required value") ||
		!strings.Contains(out, "spec.ttlSecondsAfterFinished: Invalid value") {
		t.Errorf("a bad rebalancer was not refused by field: err=%v\n%s", err, out)
	}
}
