package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/test/e2e/framework"
)

// frqYAML is a FederatedResourceQuota of the namespace: an overall cpu
// limit and 20 pods, and assignments of 5 pods to the clusters given.
func frqYAML(ns, cpu string, clusters ...string) string {
	out := `apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: team, namespace: ` + ns + `}
spec:
  overall: {cpu: "` + cpu + `", pods: "20"}
  staticAssignments:
`
	for _, c := range clusters {
		out += "  - {clusterName: " + c + ", hard: {pods: \"5\"}}\n"
	}
	return out
}

// TestFederatedResourceQuota: static assignments become ResourceQuotas in
// their members and come back in the status; the overall limit is
// enforced by the scheduler on the placements it makes: a scale past it
// succeeds on the template but the binding keeps its placement, with a
// condition and an Event naming the figures, until the limit is raised;
// lowering the limit evicts nothing; removing an assignment or the quota
// removes the members' ResourceQuotas.
func TestFederatedResourceQuota(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-quota")
	kubectl(t, frqYAML(ns, "1", "member1", "member3"), "apply", "-f", "-")
	kubectl(t, deploymentYAML(ns, "app", 2, "200m")+"---\n"+weightedPolicy(ns, "app", "member1", "member3", 1, 1, ""), "apply", "-f", "-")
	waitReplicas(t, ns, "app", map[string]int32{"member1": 1, "member3": 1})
	waitMemberQuota(t, ns, map[string]bool{"member1": true, "member2": false, "member3": true})

	_, mco := mcoClients(t)
	eventually(t, 60*time.Second, "status: overall, overallUsed and both members", func(ctx context.Context) (bool, string) {
		q, err := mco.PolicyV1alpha1().FederatedResourceQuotas(ns).Get(ctx, "team", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		st := q.Status
		cpu, pods := st.OverallUsed["cpu"], st.OverallUsed["pods"]
		ok := st.Overall.Cpu().String() == "1" && cpu.String() == "400m" && pods.String() == "2" && len(st.AggregatedStatus) == 2 &&
			st.AggregatedStatus[0].ClusterName == "member1" && st.AggregatedStatus[1].ClusterName == "member3" &&
			st.AggregatedStatus[0].Hard.Pods().String() == "5" && st.AggregatedStatus[0].Used != nil
		return ok, fmt.Sprintf("status %+v", st)
	})
	if out := kubectl(t, "", "get", "federatedresourcequota", "-n", ns); !strings.Contains(out, "cpu: 400m, pods: 2") {
		t.Errorf("kubectl get shows no usage:\n%s", out)
	}

	// 6 replicas of 200m would use 1200m of the 1 cpu: the scale succeeds
	// on mco, the binding stays at 2.
	kubectl(t, "", "scale", "-n", ns, "deployment/app", "--replicas=6")
	eventually(t, 30*time.Second, "the placement refused by the quota", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "app-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		c := meta.FindStatusCondition(b.Status.Conditions, "Scheduled")
		ok := b.Spec.Replicas == 6 && c != nil && c.Status == metav1.ConditionFalse && c.Reason == "FederatedResourceQuotaExceeded" &&
			strings.Contains(c.Message, "cpu: 1200m would be used (800m more), over the limit of 1")
		return ok, bindingSummary(ctx, mco, ns, "app-deployment")
	})
	waitReplicas(t, ns, "app", map[string]int32{"member1": 1, "member3": 1})
	if out := kubectl(t, "", "describe", "resourcebinding", "-n", ns, "app-deployment"); !strings.Contains(out, "FederatedResourceQuota "+ns+"/team: cpu: 1200m") {
		t.Errorf("no Event naming the quota in describe:\n%s", out)
	}

	// Raised, the limit lets the placement through.
	kubectl(t, frqYAML(ns, "2", "member1", "member3"), "apply", "-f", "-")
	waitReplicas(t, ns, "app", map[string]int32{"member1": 3, "member3": 3})

	// Lowered below what runs, it evicts nothing; shrinking is allowed,
	// growing is not.
	kubectl(t, frqYAML(ns, "500m", "member1"), "apply", "-f", "-")
	waitMemberQuota(t, ns, map[string]bool{"member1": true, "member3": false})
	// The lowered limit is in force (the status says so, and the scheduler
	// reads the same object), and the placement is still whole.
	eventually(t, 30*time.Second, "the lowered limit in force", func(ctx context.Context) (bool, string) {
		q, err := mco.PolicyV1alpha1().FederatedResourceQuotas(ns).Get(ctx, "team", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return q.Status.Overall.Cpu().String() == "500m", fmt.Sprintf("status overall %v", q.Status.Overall)
	})
	if b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(context.Background(), "app-deployment", metav1.GetOptions{}); err != nil ||
		len(b.Spec.Clusters) != 2 || b.Spec.Clusters[0].Replicas+b.Spec.Clusters[1].Replicas != 6 {
		t.Errorf("lowering the limit changed the placement: %v %v", err, b)
	}
	waitReplicas(t, ns, "app", map[string]int32{"member1": 3, "member3": 3})
	kubectl(t, "", "scale", "-n", ns, "deployment/app", "--replicas=4")
	waitReplicas(t, ns, "app", map[string]int32{"member1": 2, "member3": 2})

	// An assignment naming no joined cluster: an Event says so, the rest
	// goes on.
	kubectl(t, frqYAML(ns, "500m", "member1", "ghost"), "apply", "-f", "-")
	eventually(t, 30*time.Second, "an Event about cluster ghost", func(context.Context) (bool, string) {
		out, _ := kubectlErr("", "describe", "federatedresourcequota", "-n", ns, "team")
		return strings.Contains(out, "NoSuchCluster") && strings.Contains(out, "ghost"), out
	})
	waitMemberQuota(t, ns, map[string]bool{"member1": true})

	kubectl(t, "", "delete", "federatedresourcequota", "-n", ns, "team", "--wait=true")
	waitMemberQuota(t, ns, map[string]bool{"member1": false})

	out, err := kubectlErr(`apiVersion: policy.karmada.io/v1alpha1
kind: FederatedResourceQuota
metadata: {name: bad, namespace: `+ns+`}
spec:
  overall: {cpu: "1"}
  staticAssignments:
  - {clusterName: member1, hard: {cpu: "800m"}}
  - {clusterName: member3, hard: {cpu: "800m", pods: "3"}}
`, "apply", "-f", "-")
	if err == nil || !strings.Contains(out, "spec.staticAssignments[1].hard[pods]") ||
		!strings.Contains(out, "the assignments of cpu add up to more than spec.overall's 1") {
		t.Errorf("a bad quota was not refused by field: err=%v\n%s", err, out)
	}
}

// waitMemberQuota waits until the ResourceQuota "team" exists (or not) in
// each member.
func waitMemberQuota(t *testing.T, ns string, want map[string]bool) {
	t.Helper()
	for m, present := range want {
		eventually(t, 60*time.Second, fmt.Sprintf("resourcequota team in %s present=%v", m, present), func(ctx context.Context) (bool, string) {
			rq, err := memberClient(t, m).CoreV1().ResourceQuotas(ns).Get(ctx, "team", metav1.GetOptions{})
			if apierrors.IsNotFound(err) {
				return !present, "absent"
			}
			if err != nil {
				return false, err.Error()
			}
			return present && rq.Spec.Hard.Pods().String() == "5", fmt.Sprintf("hard %v", rq.Spec.Hard)
		})
	}
}
