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

// TestCronFederatedHPA: a Deployment divided over member1 (Push) and
// member3 (Pull) by equal weights; a CronFederatedHPA applied as Karmada's
// users write it sets 6 replicas at the next minute, the scheduler divides
// them (3 and 3) and both members run them; the run is in the status.
func TestCronFederatedHPA(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-cronfhpa")
	kubectl(t, deploymentYAML(ns, "web", 2, "10m")+"---\n"+weightedPolicy(ns, "web", "member1", "member3", 1, 1, "")+`---
apiVersion: autoscaling.karmada.io/v1alpha1
kind: CronFederatedHPA
metadata: {name: web-cron, namespace: `+ns+`}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  rules:
  - {name: scale-up, schedule: "* * * * *", targetReplicas: 6}
`, "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member3": 1})
	_, mco := mcoClients(t)
	eventually(t, 100*time.Second, "scale-up run", func(ctx context.Context) (bool, string) {
		c, err := mco.AutoscalingV1alpha1().CronFederatedHPAs(ns).Get(ctx, "web-cron", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		h := c.Status.ExecutionHistories
		return len(h) == 1 && len(h[0].SuccessfulExecutions) > 0 && *h[0].SuccessfulExecutions[0].AppliedReplicas == 6, fmt.Sprintf("%+v", h)
	})
	waitReplicas(t, ns, "web", map[string]int32{"member1": 3, "member3": 3})
}

// TestTopAcrossMembers: mco serves metrics.k8s.io read from the members'
// own metrics-server: `kubectl top pods` on mco lists a Deployment's pods
// in the Push members, says why the Pull member is left out, and selects
// one member with -l on the cluster label; the Push members' node metrics
// are listed; `kubectl get podmetrics` prints the cluster.
func TestTopAcrossMembers(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-top")
	kubectl(t, deploymentYAML(ns, "web", 1, "10m")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2, member3]}
    replicaScheduling: {replicaSchedulingType: Duplicated}
`, "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1, "member3": 1})
	eventually(t, 90*time.Second, "kubectl top pods lists web in member1 and member2", func(context.Context) (bool, string) {
		out, err := kubectlErr("", "top", "pods", "-n", ns)
		return err == nil && strings.Count(out, "web-") == 2 &&
			strings.Contains(out, "metrics of cluster member3 left out: it is in Pull mode"), out
	})
	out := kubectl(t, "", "top", "pods", "-n", ns, "-l", "resource.karmada.io/query-from-cluster=member2")
	if strings.Count(out, "web-") != 1 {
		t.Errorf("kubectl top pods -l ...=member2 lists %d pods:\n%s", strings.Count(out, "web-"), out)
	}
	out = kubectl(t, "", "get", "podmetrics", "-n", ns)
	if !strings.Contains(out, "CLUSTER") || !strings.Contains(out, "member1") || !strings.Contains(out, "member2") {
		t.Errorf("kubectl get podmetrics:\n%s", out)
	}
	// kubectl top nodes also lists core Nodes, which mco does not serve;
	// the node metrics themselves are there.
	eventually(t, 60*time.Second, "the Push members' node metrics", func(context.Context) (bool, string) {
		out, err := kubectlErr("", "get", "nodemetrics")
		return err == nil && strings.Contains(out, "member1-node-") && strings.Contains(out, "member2-node-"), out
	})
}
