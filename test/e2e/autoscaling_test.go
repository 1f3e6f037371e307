package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

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

// TestFederatedHPA: a Deployment divided over member1 and member2 with a
// FederatedHPA applied as Karmada's users write it (CPU 50 %, 2-10, a
// short scale-down window). Raising member1's pods' CPU use (kwok's usage
// annotation) makes mco set more replicas on the template, which the
// scheduler divides over both members; lowering it brings the template
// back to the minimum; the FederatedHPA's status and conditions are
// Kubernetes' HPA's, and its Events name it.
func TestFederatedHPA(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-fhpa")
	kubectl(t, deploymentYAML(ns, "web", 2, "10m")+"---\n"+weightedPolicy(ns, "web", "member1", "member2", 1, 1, "")+`---
apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: web, namespace: `+ns+`}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
  behavior:
    scaleDown: {stabilizationWindowSeconds: 5}
`, "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1})
	kube, mco := mcoClients(t)
	eventually(t, 120*time.Second, "the FederatedHPA reads the pods' CPU in both members", func(ctx context.Context) (bool, string) {
		f, err := mco.AutoscalingV1alpha1().FederatedHPAs(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		active := false
		for _, c := range f.Status.Conditions {
			active = active || (c.Type == "ScalingActive" && c.Status == "True")
		}
		return active && len(f.Status.CurrentMetrics) == 1 && f.Status.CurrentReplicas == 2, fmt.Sprintf("%+v", f.Status)
	})
	templateReplicas := func(ctx context.Context) int32 {
		d, err := kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return -1
		}
		return *d.Spec.Replicas
	}
	setUsage := func(ctx context.Context, cpu string) error {
		pods, err := memberClient(t, "member1").CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=web"})
		if err != nil {
			return err
		}
		for _, p := range pods.Items {
			patch := fmt.Sprintf(`{"metadata":{"annotations":{"kwok.x-k8s.io/usage-cpu":%q}}}`, cpu)
			if _, err := memberClient(t, "member1").CoreV1().Pods(ns).Patch(ctx, p.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
				return err
			}
		}
		return nil
	}
	start := time.Now()
	if err := setUsage(context.Background(), "40m"); err != nil {
		t.Fatal(err)
	}
	var scaled int32
	eventually(t, 120*time.Second, "the template scaled up", func(ctx context.Context) (bool, string) {
		scaled = templateReplicas(ctx)
		return scaled > 2, fmt.Sprintf("template replicas %d", scaled)
	})
	toTemplate := time.Since(start)
	eventually(t, 90*time.Second, "the members run the new replicas, divided", func(ctx context.Context) (bool, string) {
		got := replicasIn(ctx, t, ns, "web", []string{"member1", "member2"})
		want := templateReplicas(ctx)
		return got["member1"] > 1 && got["member2"] > 1 && got["member1"]+got["member2"] == want,
			fmt.Sprintf("members %v, template %d", got, want)
	})
	t.Logf("CPU raised in member1: the template went to %d replicas %s later, the members ran them %s after the change",
		scaled, toTemplate.Round(100*time.Millisecond), time.Since(start).Round(100*time.Millisecond))

	// Every pod of member1, new ones too, back to idle.
	eventually(t, 180*time.Second, "the template back at the minimum", func(ctx context.Context) (bool, string) {
		if err := setUsage(ctx, "1m"); err != nil {
			return false, err.Error()
		}
		r := templateReplicas(ctx)
		return r == 2, fmt.Sprintf("template replicas %d", r)
	})
	out := kubectl(t, "", "get", "events", "-n", ns, "--field-selector", "involvedObject.kind=FederatedHPA,involvedObject.name=web", "-o", "jsonpath={.items[*].reason}")
	if !strings.Contains(out, "SuccessfulRescale") {
		t.Errorf("events about FederatedHPA web: %q, want SuccessfulRescale", out)
	}
}
