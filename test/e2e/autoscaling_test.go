package e2e

import (
	"context"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/resource"
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
// own metrics-server: `kubectl top pods -A` on mco lists a Deployment's
// pods in all three members (member3, Pull, from what its mco-agent
// reports), and selects one member with -l on the cluster label; every
// member's node metrics are listed; `kubectl get podmetrics` prints the
// cluster.
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
	eventually(t, 90*time.Second, "kubectl top pods -A lists web in the three members", func(context.Context) (bool, string) {
		out, err := kubectlErr("", "top", "pods", "-A")
		return err == nil && strings.Count(out, ns+" ") == 3 && !strings.Contains(out, "left out"), out
	})
	for _, m := range []string{"member2", "member3"} {
		out := kubectl(t, "", "top", "pods", "-n", ns, "-l", "resource.karmada.io/query-from-cluster="+m)
		if strings.Count(out, "web-") != 1 {
			t.Errorf("kubectl top pods -l ...=%s lists %d pods:\n%s", m, strings.Count(out, "web-"), out)
		}
	}
	out := kubectl(t, "", "get", "podmetrics", "-n", ns)
	if !strings.Contains(out, "CLUSTER") || !strings.Contains(out, "member1") || !strings.Contains(out, "member2") || !strings.Contains(out, "member3") {
		t.Errorf("kubectl get podmetrics:\n%s", out)
	}
	// kubectl top nodes also lists core Nodes, which mco does not serve;
	// the node metrics themselves are there.
	eventually(t, 60*time.Second, "every member's node metrics", func(context.Context) (bool, string) {
		out, err := kubectlErr("", "get", "nodemetrics")
		return err == nil && strings.Contains(out, "member1-node-") && strings.Contains(out, "member2-node-") && strings.Contains(out, "member3-node-"), out
	})
}

// TestFederatedHPA: a Deployment divided over member1 (Push) and member3
// (Pull) with a FederatedHPA applied as Karmada's users write it (CPU
// 50 %, 2-10, a short scale-down window). mco does not reach member3: its
// pods are counted as its mco-agent reports them. Raising member1's pods'
// CPU use (kwok's usage annotation) makes mco set more replicas on the
// template, which the scheduler divides over both members; lowering it
// brings the template back to the minimum; raising member3's alone scales
// it up again. The FederatedHPA's status and conditions are Kubernetes'
// HPA's, and its Events name it.
func TestFederatedHPA(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-fhpa")
	kubectl(t, deploymentYAML(ns, "web", 2, "10m")+"---\n"+weightedPolicy(ns, "web", "member1", "member3", 1, 1, "")+`---
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
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member3": 1})
	kube, mco := mcoClients(t)
	eventually(t, 120*time.Second, "the FederatedHPA reads the CPU of member1's pods", func(ctx context.Context) (bool, string) {
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
	setUsage := func(ctx context.Context, cpu string) error { return setPodCPU(ctx, t, "member1", ns, "web", cpu) }
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
		got := replicasIn(ctx, t, ns, "web", []string{"member1", "member3"})
		want := templateReplicas(ctx)
		return got["member1"] > 1 && got["member3"] > 1 && got["member1"]+got["member3"] == want,
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

	// The Pull member's load counts: member3's pods busy, member1's idle.
	start = time.Now()
	eventually(t, 120*time.Second, "the template scaled up on member3's load", func(ctx context.Context) (bool, string) {
		if err := setPodCPU(ctx, t, "member3", ns, "web", "40m"); err != nil {
			return false, err.Error()
		}
		r := templateReplicas(ctx)
		return r > 2, fmt.Sprintf("template replicas %d", r)
	})
	t.Logf("CPU raised in member3 (Pull): the template scaled up %s later", time.Since(start).Round(100*time.Millisecond))
}

// setPodCPU sets the CPU use kwok reports for the pods of a Deployment
// (app=name) in a member.
func setPodCPU(ctx context.Context, t *testing.T, member, ns, name, cpu string) error {
	pods, err := memberClient(t, member).CoreV1().Pods(ns).List(ctx, metav1.ListOptions{LabelSelector: "app=" + name})
	if err != nil {
		return err
	}
	for _, p := range pods.Items {
		patch := fmt.Sprintf(`{"metadata":{"annotations":{"kwok.x-k8s.io/usage-cpu":%q}}}`, cpu)
		if _, err := memberClient(t, member).CoreV1().Pods(ns).Patch(ctx, p.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			return err
		}
	}
	return nil
}

// fhpaYAML is a FederatedHPA on the Deployment name: CPU at 50 % of the
// request, between lo and hi replicas, scaling down as soon as asked.
func fhpaYAML(ns, name string, lo, hi int) string {
	return fmt.Sprintf(`apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %[2]s}
  minReplicas: %[3]d
  maxReplicas: %[4]d
  metrics:
  - type: Resource
    resource: {name: cpu, target: {type: Utilization, averageUtilization: 50}}
  behavior:
    scaleDown: {stabilizationWindowSeconds: 0}
`, ns, name, lo, hi)
}

// podsFHPAYAML is a FederatedHPA on the Deployment name: the Pods metric
// "requests" at 10 per pod, 2 to 10 replicas, scaling down as soon as
// asked and up by up to 10 pods a step (not Kubernetes' default of twice
// the replicas).
func podsFHPAYAML(ns, name string) string {
	return fmt.Sprintf(`apiVersion: autoscaling.karmada.io/v1alpha1
kind: FederatedHPA
metadata: {name: %[2]s, namespace: %[1]s}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: %[2]s}
  minReplicas: 2
  maxReplicas: 10
  metrics:
  - type: Pods
    pods:
      metric: {name: requests}
      target: {type: AverageValue, averageValue: "10"}
  behavior:
    scaleUp: {policies: [{type: Pods, value: 10, periodSeconds: 15}]}
    scaleDown: {stabilizationWindowSeconds: 0}
`, ns, name)
}

// waitFHPAPodsMetric waits until the FederatedHPA reads the Pods metric at
// the average want with the template at replicas.
func waitFHPAPodsMetric(t *testing.T, ns, name string, want int64, replicas int32) {
	t.Helper()
	_, mco := mcoClients(t)
	eventually(t, 90*time.Second, fmt.Sprintf("the FederatedHPA reads %d requests per pod at %d replicas", want, replicas), func(ctx context.Context) (bool, string) {
		f, err := mco.AutoscalingV1alpha1().FederatedHPAs(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		m := f.Status.CurrentMetrics
		return len(m) == 1 && m[0].Pods != nil && m[0].Pods.Current.AverageValue != nil && m[0].Pods.Current.AverageValue.Value() == want &&
			f.Status.CurrentReplicas == replicas, fmt.Sprintf("%+v", f.Status)
	})
}

// TestFederatedHPADuplicated: a Deployment of 1 replica Duplicated to
// member1 and member2 runs 2 pods; at about twice its target CPU the
// FederatedHPA wants about 4 pods, which is 2 replicas of the template
// (each member runs them all), not 4 (8 pods), as Karmada's calibration
// has it: the template gets half the pods the autoscaler wants, rounded
// up.
func TestFederatedHPADuplicated(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-fhpa-dup")
	kubectl(t, deploymentYAML(ns, "web", 1, "10m")+"---\n"+duplicatedPolicy(ns, "web", "member1, member2"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1})
	setAndWaitPodCPU(t, ns, "web", []string{"member1", "member2"}, 10, 2)
	kubectl(t, fhpaYAML(ns, "web", 1, 4), "apply", "-f", "-")
	kube, mco := mcoClients(t)
	templateReplicas := func(ctx context.Context) int32 {
		d, err := kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return -1
		}
		return *d.Spec.Replicas
	}
	// The first step is the one to check: later ones also see the new
	// pods, whose CPU use is kwok's default.
	var first int32
	eventually(t, 120*time.Second, "the template scaled", func(ctx context.Context) (bool, string) {
		first = templateReplicas(ctx)
		return first > 1, fmt.Sprintf("template %d", first)
	})
	// The autoscaler's own size (in its Event) counts pods; the template
	// runs half of them in each member.
	var pods int
	eventually(t, 30*time.Second, "the SuccessfulRescale Event", func(context.Context) (bool, string) {
		out, err := kubectlErr("", "get", "events", "-n", ns, "--field-selector", "involvedObject.kind=FederatedHPA,reason=SuccessfulRescale", "-o", "jsonpath={.items[0].message}")
		if err != nil {
			return false, out
		}
		_, err = fmt.Sscanf(out, "New size: %d;", &pods)
		return err == nil, out
	})
	if want := int32((pods + 1) / 2); first != want {
		t.Fatalf("the autoscaler wanted %d pods and the template went to %d replicas, want %d: each replica runs in both members", pods, first, want)
	}
	t.Logf("both members at twice the CPU target: the autoscaler wanted %d pods, the template went from 1 to %d replicas", pods, first)
	f, err := mco.AutoscalingV1alpha1().FederatedHPAs(ns).Get(context.Background(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if f.Status.DesiredReplicas != first {
		t.Errorf("status %+v, want the template's replicas: desired %d", f.Status, first)
	}
	eventually(t, 60*time.Second, "each member runs the template's replicas", func(ctx context.Context) (bool, string) {
		want := templateReplicas(ctx)
		got := replicasIn(ctx, t, ns, "web", []string{"member1", "member2"})
		return want >= 2 && got["member1"] == want && got["member2"] == want, fmt.Sprintf("template %d, members %v", want, got)
	})
}

// setAndWaitPodCPU sets the CPU use kwok reports for the Deployment's
// pods (app=name) in members to milli millicores, again on every try (a pod
// its ReplicaSet starts after a try has kwok's default), until mco's
// metrics.k8s.io reads pods pods at about that use (kubectl top's column:
// a rate over two samples, which reads 11m for 10m on a busy machine).
func setAndWaitPodCPU(t *testing.T, ns, name string, members []string, milli int64, pods int) {
	t.Helper()
	cpu := fmt.Sprintf("%dm", milli)
	eventually(t, 120*time.Second, fmt.Sprintf("kubectl top pods reads %d pods at about %s", pods, cpu), func(ctx context.Context) (bool, string) {
		for _, m := range members {
			if err := setPodCPU(ctx, t, m, ns, name, cpu); err != nil {
				return false, err.Error()
			}
		}
		out, err := kubectlErr("", "top", "pods", "-n", ns, "-l", "app="+name, "--no-headers")
		if err != nil {
			return false, out
		}
		return podsNear(out, milli) == pods, out
	})
}

// podsNear counts the lines of kubectl top pods whose CPU column is within
// a fifth of milli millicores (at least 1m either way).
func podsNear(top string, milli int64) int {
	slack := max(milli/5, 1)
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(top), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] == "Warning:" {
			continue
		}
		q, err := resource.ParseQuantity(f[1])
		if err != nil {
			continue
		}
		if d := q.MilliValue() - milli; d >= -slack && d <= slack {
			n++
		}
	}
	return n
}

// fhpaWithoutMember (TestMember2Outage): a Deployment of 4 replicas
// divided over member1 and member2, which tolerates their failure (nothing
// moves), with a FederatedHPA on a Pods metric (10 requests per pod) that
// an adapter in each member serves: 12 per pod in member1, 8 in member2,
// 10 on average. While member2 is away its pods leave the calculation and
// member1's load stands for the whole template: 12 per pod over 4
// replicas wants 6, never fewer than 4 (counting only the pods it sees
// against the template's replicas would have scaled it down to 3). A
// custom metric is there as soon as the pods are, where metrics-server
// takes half a minute or more to report new pods, and this check sets up
// before the outage, which every test waits for.
func fhpaWithoutMember(t *testing.T) (during, after func(t *testing.T)) {
	ns := namespace(t, "e2e-fhpa-outage")
	serveCustomMetrics(t, "member1", "requests", func(string) int64 { return 12 })
	serveCustomMetrics(t, "member2", "requests", func(string) int64 { return 8 })
	kubectl(t, deploymentYAML(ns, "web", 4, "10m")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: web, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  placement:
    clusterAffinity: {clusterNames: [member1, member2]}
    clusterTolerations:
    - {key: cluster.karmada.io/not-ready, operator: Exists, effect: NoExecute}
    - {key: cluster.karmada.io/unreachable, operator: Exists, effect: NoExecute}
    replicaScheduling:
      replicaSchedulingType: Divided
      replicaDivisionPreference: Weighted
      weightPreference:
        staticWeightList:
        - {targetCluster: {clusterNames: [member1]}, weight: 1}
        - {targetCluster: {clusterNames: [member2]}, weight: 1}
`, "apply", "-f", "-")
	// The autoscaler comes once the members hold their replicas: with no
	// scale-down window, a first pass over pods still being created could
	// move the template before the check begins (seen once in CI: 4 -> 2).
	waitReplicas(t, ns, "web", map[string]int32{"member1": 2, "member2": 2})
	kubectl(t, podsFHPAYAML(ns, "web"), "apply", "-f", "-")
	waitFHPAPodsMetric(t, ns, "web", 10, 4)
	kube, _ := mcoClients(t)
	during = func(t *testing.T) {
		start := time.Now()
		eventually(t, 120*time.Second, "the template at 6 replicas from member1's load", func(ctx context.Context) (bool, string) {
			d, err := kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			if *d.Spec.Replicas < 4 {
				t.Fatalf("the template went down to %d replicas while member2 was away", *d.Spec.Replicas)
			}
			return *d.Spec.Replicas == 6, fmt.Sprintf("template %d", *d.Spec.Replicas)
		})
		t.Logf("the FederatedHPA scaled on member1's pods alone %s after the outage began", time.Since(start).Round(100*time.Millisecond))
	}
	return during, nil
}

// TestFederatedHPAPodsMetric: a Deployment divided over member1 and
// member2, both serving a custom metric "requests" per pod (an adapter
// registered in each member); a FederatedHPA on that Pods metric at 10 per
// pod reads it from both members through their own aggregators, and when
// member1's pods report 40 it scales the template from 2 to 5 replicas
// (an average of 25 per pod over both members' pods; a behavior lifts
// the default limit of a step, twice the replicas).
func TestFederatedHPAPodsMetric(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-fhpa-pods")
	var member1Requests atomic.Int64
	member1Requests.Store(10)
	serveCustomMetrics(t, "member1", "requests", func(string) int64 { return member1Requests.Load() })
	serveCustomMetrics(t, "member2", "requests", func(string) int64 { return 10 })
	kubectl(t, deploymentYAML(ns, "web", 2, "10m")+"---\n"+weightedPolicy(ns, "web", "member1", "member2", 1, 1, "")+"---\n"+podsFHPAYAML(ns, "web"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 1, "member2": 1})
	waitFHPAPodsMetric(t, ns, "web", 10, 2)
	kube, _ := mcoClients(t)
	member1Requests.Store(40)
	start := time.Now()
	var first int32
	eventually(t, 90*time.Second, "the template scaled", func(ctx context.Context) (bool, string) {
		d, err := kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		first = *d.Spec.Replicas
		return first != 2, fmt.Sprintf("template %d", first)
	})
	if first != 5 {
		t.Errorf("the template went to %d replicas, want 5 (40 and 10 requests against 10 per pod)", first)
	}
	t.Logf("member1's requests raised: the template went to %d replicas %s later", first, time.Since(start).Round(100*time.Millisecond))
}
