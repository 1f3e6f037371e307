package e2e

import (
	"context"
	"fmt"
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
