package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/scheduler"
	"github.com/mco-org/mco/test/e2e/framework"
)

// pauseMember pauses a member's kube-apiserver for the rest of the test
// unless resumed earlier; resume reports whether it was paused.
func pauseMember(t *testing.T, name string) (resume func()) {
	t.Helper()
	p := framework.Env.Member(name).APIServer
	if err := p.Pause(); err != nil {
		t.Fatal(err)
	}
	done := false
	resume = func() {
		if !done {
			done = true
			if err := p.Resume(); err != nil {
				t.Error(err)
			}
		}
	}
	t.Cleanup(resume)
	return resume
}

// waitClusterHealthy waits until the member is Ready and carries no taint.
func waitClusterHealthy(t *testing.T, name string) {
	t.Helper()
	eventually(t, 90*time.Second, name+" ready without taints", func(ctx context.Context) (bool, string) {
		_, mco := mcoClients(t)
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return meta.IsStatusConditionTrue(c.Status.Conditions, "Ready") && len(c.Spec.Taints) == 0,
			fmt.Sprintf("conditions %v taints %v", c.Status.Conditions, c.Spec.Taints)
	})
}

// failoverMovesReplicas (TestMember2Outage): a Deployment divided over
// member1 and member2 moves entirely to member1 when member2 stops
// answering (the default ClusterTaintPolicy taints it NoExecute once Ready
// has been False past the threshold); mco never reports fewer available
// replicas than the survivor runs; when member2 is back its taints go, the
// eviction ends and exactly the asked replicas run.
func failoverMovesReplicas(t *testing.T) (during, after func(t *testing.T)) {
	ns := namespace(t, "e2e-failover")
	kubectl(t, deploymentYAML(ns, "web", 4, "100m")+"---\n"+staticWeightPolicy(ns, "web", 1, 1), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member1": 2, "member2": 2})
	kube, mco := mcoClients(t)
	eventually(t, 60*time.Second, "4 available on mco", func(ctx context.Context) (bool, string) {
		d, err := kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		return err == nil && d.Status.AvailableReplicas == 4, fmt.Sprint(err)
	})

	during = func(t *testing.T) {
		paused := time.Now()
		minAvailable := int32(4)
		eventually(t, 120*time.Second, "all 4 replicas ready in member1", func(ctx context.Context) (bool, string) {
			if d, err := kube.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{}); err == nil && d.Status.AvailableReplicas < minAvailable {
				minAvailable = d.Status.AvailableReplicas
			}
			d, err := memberClient(t, "member1").AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			return *d.Spec.Replicas == 4 && d.Status.ReadyReplicas == 4, fmt.Sprintf("member1 spec %d ready %d", *d.Spec.Replicas, d.Status.ReadyReplicas)
		})
		t.Logf("pause of member2 to 4 replicas ready in member1: %s", time.Since(paused).Round(time.Second))
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(context.Background(), "web-deployment", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(b.Spec.Clusters) != 1 || b.Spec.Clusters[0].Name != "member1" {
			t.Errorf("binding clusters after failover: %v", b.Spec.Clusters)
		}
		// member1 kept its 2 replicas all along; mco's sum must not drop below.
		if minAvailable < 2 {
			t.Errorf("mco reported %d available replicas during failover; member1 ran at least 2", minAvailable)
		}
	}
	after = func(t *testing.T) { waitEvictionOver(t, ns, "web", 4, 90*time.Second, "") }
	return during, after
}

// waitEvictionOver waits until the Deployment's binding has no graceful
// eviction task left and its replicas in the members add up to want.
func waitEvictionOver(t *testing.T, ns, name string, want int32, timeout time.Duration, what string) {
	t.Helper()
	_, mco := mcoClients(t)
	eventually(t, timeout, what+fmt.Sprintf("eviction over, %d replicas in all", want), func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, name+"-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		got := memberReplicas(ctx, t, ns, name)
		var sum int32
		for _, r := range got {
			sum += max(r, 0)
		}
		return len(b.Spec.GracefulEvictionTasks) == 0 && sum == want, fmt.Sprintf("tasks %v, members %v", b.Spec.GracefulEvictionTasks, got)
	})
}

// failoverWithoutAlternative (TestMember2Outage): a workload only member2
// may run stays on member2 when it fails; the binding's condition and an
// Event say why; back, it still runs there and nothing is left to clean.
func failoverWithoutAlternative(t *testing.T) (during, after func(t *testing.T)) {
	ns := namespace(t, "e2e-failover-only")
	kubectl(t, deploymentYAML(ns, "web", 2, "100m")+"---\n"+onlyOn(ns, "web", "member2", "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "web", map[string]int32{"member2": 2})
	_, mco := mcoClients(t)

	during = func(t *testing.T) {
		eventually(t, 120*time.Second, "eviction blocked, explained", func(ctx context.Context) (bool, string) {
			b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "web-deployment", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			c := meta.FindStatusCondition(b.Status.Conditions, scheduler.ConditionEvictionBlocked)
			ok := c != nil && c.Status == metav1.ConditionTrue && strings.Contains(c.Message, "member2") &&
				len(b.Spec.Clusters) == 1 && b.Spec.Clusters[0].Name == "member2" && len(b.Spec.GracefulEvictionTasks) == 0
			return ok, fmt.Sprintf("clusters %v tasks %v condition %+v", b.Spec.Clusters, b.Spec.GracefulEvictionTasks, c)
		})
		out := kubectl(t, "", "-n", ns, "get", "events", "--field-selector", "reason=EvictWorkloadFromClusterFailed", "-o", "name")
		if strings.TrimSpace(out) == "" {
			t.Error("no EvictWorkloadFromClusterFailed event")
		}
	}
	after = func(t *testing.T) {
		eventually(t, 60*time.Second, "no longer blocked, still on member2", func(ctx context.Context) (bool, string) {
			b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "web-deployment", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			c := meta.FindStatusCondition(b.Status.Conditions, scheduler.ConditionEvictionBlocked)
			return c != nil && c.Status == metav1.ConditionFalse && len(b.Spec.Clusters) == 1 && b.Spec.Clusters[0].Name == "member2",
				fmt.Sprintf("clusters %v condition %+v", b.Spec.Clusters, c)
		})
		waitReplicas(t, ns, "web", map[string]int32{"member1": -1, "member2": 2, "member3": -1})
	}
	return during, after
}

// TestApplicationFailover: a workload that stays unhealthy in one member
// (there its pods never turn Ready: an override adds the label kwok's
// stages hold back) longer than tolerationSeconds is moved off that
// member, with reason ApplicationFailure. purgeMode Never keeps the task
// (and the old copy), so the member stays excluded while the test looks.
func TestApplicationFailover(t *testing.T) {
	framework.Parallel(t)
	ns := namespace(t, "e2e-app-failover")
	failover := `  propagateDeps: true
  failover:
    application:
      decisionConditions: {tolerationSeconds: 5}
      purgeMode: Never
`
	// The override goes first: applied with the workload, it may reach
	// the binding controller after member2's first Work, whose pods then
	// turn Ready, and the one that never does stays behind a Ready one.
	kubectl(t, fmt.Sprintf(`apiVersion: policy.karmada.io/v1alpha1
kind: OverridePolicy
metadata: {name: never-ready-on-member2, namespace: %[1]s}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: web}]
  overrideRules:
  - targetCluster: {clusterNames: [member2]}
    overriders:
      plaintext:
      - {path: /spec/template/metadata/labels/mco-org.github.io~1never-ready, operator: add, value: "true"}
`, ns), "apply", "-f", "-")
	kubectl(t, deploymentYAML(ns, "web", 2, "100m")+"---\n"+weightedPolicy(ns, "web", "member1", "member2", 1, 1, failover), "apply", "-f", "-")
	_, mco := mcoClients(t)
	start := time.Now()
	eventually(t, 120*time.Second, "moved off member2 for ApplicationFailure, 2 ready in member1", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "web-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		evicted := false
		for _, task := range b.Spec.GracefulEvictionTasks {
			evicted = evicted || (task.FromCluster == "member2" && task.Reason == "ApplicationFailure")
		}
		d, err := memberClient(t, "member1").AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		onlyMember1 := len(b.Spec.Clusters) == 1 && b.Spec.Clusters[0].Name == "member1"
		return evicted && onlyMember1 && d.Status.ReadyReplicas == 2,
			fmt.Sprintf("clusters %v tasks %v member1 ready %d", b.Spec.Clusters, b.Spec.GracefulEvictionTasks, d.Status.ReadyReplicas)
	})
	t.Logf("application failover done %s after apply", time.Since(start).Round(time.Second))
	if got := memberReplicas(context.Background(), t, ns, "web")["member2"]; got != 1 {
		t.Errorf("member2 has %d replicas; purgeMode Never keeps the old copy", got)
	}
}

// waitNoExecuteTaint waits until the member carries the default policy's
// NoExecute taint.
func waitNoExecuteTaint(t *testing.T, name string) {
	t.Helper()
	eventually(t, 90*time.Second, name+" tainted NoExecute", func(ctx context.Context) (bool, string) {
		_, mco := mcoClients(t)
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, taint := range c.Spec.Taints {
			if taint.Effect == "NoExecute" {
				return true, ""
			}
		}
		return false, fmt.Sprintf("taints %v", c.Spec.Taints)
	})
}

// TestEvictionSlowsWhenMostClustersFail: with two of three members down
// (above --unhealthy-cluster-threshold, 0.55) evictions run at
// --secondary-eviction-rate (0.01/s): of three bindings on the second
// member to fail, at most one (the limiter's burst) moves while the
// others wait for the limiter.
func TestEvictionSlowsWhenMostClustersFail(t *testing.T) {
	framework.Serial(t, "pauses member1 and member2 and reads the scheduler's eviction queue")
	ns := namespace(t, "e2e-eviction-rate")
	var docs []string
	for i := 0; i < 3; i++ {
		name := fmt.Sprintf("app-%d", i)
		docs = append(docs, deploymentYAML(ns, name, 2, "100m"), weightedPolicy(ns, name, "member2", "member3", 1, 1, ""))
	}
	kubectl(t, strings.Join(docs, "---\n"), "apply", "-f", "-")
	for i := 0; i < 3; i++ {
		waitReplicas(t, ns, fmt.Sprintf("app-%d", i), map[string]int32{"member2": 1, "member3": 1})
	}
	// member1 fails first (none of these bindings use it), then member2:
	// two of three clusters are down when member2's bindings should move.
	resume1 := pauseMember(t, "member1")
	waitNoExecuteTaint(t, "member1")
	resume2 := pauseMember(t, "member2")
	waitNoExecuteTaint(t, "member2")
	// Wait until the limiter visibly holds bindings back (the scheduler's
	// eviction_queue_depth) while at most one of ours has moved: the
	// secondary bucket's single token.
	_, mco := mcoClients(t)
	eventually(t, 60*time.Second, "evictions held back by the secondary rate", func(ctx context.Context) (bool, string) {
		moved, err := movedOff(ctx, mco, ns, "member2")
		if err != nil {
			return false, err.Error()
		}
		if moved > 1 {
			t.Fatalf("%d bindings moved off member2 with 2 of 3 clusters down; the secondary rate allows one", moved)
		}
		line := metricLine(ctx, framework.Env.MCO.SchedulerURL(), "eviction_queue_depth")
		waiting := line != "" && !strings.HasSuffix(line, " 0")
		return waiting, fmt.Sprintf("%d moved, %q", moved, line)
	})
	resume1()
	resume2()
	waitClusterHealthy(t, "member1")
	waitClusterHealthy(t, "member2")
}

// movedOff counts the bindings in ns no longer placed on cluster.
func movedOff(ctx context.Context, mco mcoclient.Interface, ns, cluster string) (int, error) {
	list, err := mco.WorkV1alpha2().ResourceBindings(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return 0, err
	}
	moved := 0
	for _, b := range list.Items {
		on := false
		for _, c := range b.Spec.Clusters {
			on = on || c.Name == cluster
		}
		if !on {
			moved++
		}
	}
	return moved, nil
}

// failoverCarriesState (TestMember2Outage): a workload that leaves member2
// for another cluster when member2 fails takes what
// failover.cluster.statePreservation reads from its status there along,
// as a label of its copy in the new cluster, kept there once the eviction
// task is done.
func failoverCarriesState(t *testing.T) (during, after func(t *testing.T)) {
	ns := namespace(t, "e2e-failover-state")
	kubectl(t, deploymentYAML(ns, "stateful", 1, "10m")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: stateful, namespace: `+ns+`}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: stateful}]
  placement:
    clusterAffinities:
    - {affinityName: home, clusterNames: [member2]}
    - {affinityName: away, clusterNames: [member3]}
  failover:
    cluster:
      statePreservation:
        rules: [{aliasLabelName: e2e.mco-org.github.io/replicas, jsonPath: "{.replicas}"}]
`, "apply", "-f", "-")
	waitReplicas(t, ns, "stateful", map[string]int32{"member2": 1, "member3": -1})
	_, mco := mcoClients(t)
	eventually(t, 60*time.Second, "member2's status reported", func(ctx context.Context) (bool, string) {
		b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "stateful-deployment", metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, it := range b.Status.AggregatedStatus {
			if it.ClusterName == "member2" && it.Status != nil && strings.Contains(string(it.Status.Raw), `"replicas":1`) {
				return true, ""
			}
		}
		return false, fmt.Sprint(b.Status.AggregatedStatus)
	})
	during = func(t *testing.T) {
		eventually(t, 120*time.Second, "the copy in member3 carries member2's state", func(ctx context.Context) (bool, string) {
			d, err := memberClient(t, "member3").AppsV1().Deployments(ns).Get(ctx, "stateful", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			return d.Labels["e2e.mco-org.github.io/replicas"] == "1", fmt.Sprint(d.Labels)
		})
	}
	after = func(t *testing.T) {
		waitEvictionOver(t, ns, "stateful", 1, 90*time.Second, "")
		// The eviction task is done: once the binding's status has caught up
		// with its generation without the task (FullyApplied observes it),
		// member3's Work still carries the label (rendered again from the
		// Work's memory), and so does its copy.
		_, mco := mcoClients(t)
		eventually(t, time.Minute, "member3 keeps member2's state after the eviction", func(ctx context.Context) (bool, string) {
			b, err := mco.WorkV1alpha2().ResourceBindings(ns).Get(ctx, "stateful-deployment", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			c := meta.FindStatusCondition(b.Status.Conditions, "FullyApplied")
			if len(b.Spec.GracefulEvictionTasks) > 0 || c == nil || c.Status != metav1.ConditionTrue || c.ObservedGeneration < b.Generation {
				return false, fmt.Sprintf("tasks %d, FullyApplied %+v at generation %d", len(b.Spec.GracefulEvictionTasks), c, b.Generation)
			}
			w, err := mco.WorkV1alpha1().Works(names.ExecutionSpace("member3")).Get(ctx, names.Work("Deployment", "stateful", ns), metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			if !strings.Contains(string(w.Spec.Workload.Manifests[0].Raw), `"e2e.mco-org.github.io/replicas":"1"`) {
				t.Fatalf("member3's Work rendered without the eviction task lost the preserved label: %s", w.Spec.Workload.Manifests[0].Raw)
			}
			d, err := memberClient(t, "member3").AppsV1().Deployments(ns).Get(ctx, "stateful", metav1.GetOptions{})
			if err != nil {
				return false, err.Error()
			}
			return d.Labels["e2e.mco-org.github.io/replicas"] == "1", fmt.Sprint(d.Labels)
		})
	}
	return during, after
}
