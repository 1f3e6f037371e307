package scheduler

import (
	"context"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func taintedCluster(name string, effect corev1.TaintEffect, added time.Time) *clusterv1alpha1.Cluster {
	c := builders.NewCluster(name).WithCondition(clusterv1alpha1.ClusterConditionReady, metav1.ConditionFalse).Build()
	at := metav1.NewTime(added)
	c.Spec.Taints = []corev1.Taint{{Key: clusterv1alpha1.TaintClusterNotReady, Effect: effect, TimeAdded: &at}}
	return c
}

func readyCluster(name string) *clusterv1alpha1.Cluster {
	return builders.NewCluster(name).WithCondition(clusterv1alpha1.ClusterConditionReady, metav1.ConditionTrue).Build()
}

func TestEvictionRequests(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	noExec := taintedCluster("member2", corev1.TaintEffectNoExecute, now.Add(-time.Minute))
	noSched := taintedCluster("member3", corev1.TaintEffectNoSchedule, now.Add(-time.Minute))
	clusters := []*clusterv1alpha1.Cluster{readyCluster("member1"), noExec, noSched}
	toleration := func(seconds *int64) corev1.Toleration {
		return corev1.Toleration{Key: clusterv1alpha1.TaintClusterNotReady, Operator: corev1.TolerationOpExists,
			Effect: corev1.TaintEffectNoExecute, TolerationSeconds: seconds}
	}
	for _, tc := range []struct {
		name     string
		binding  *builders.BindingBuilder
		want     []string
		wantNext time.Duration
	}{
		{"NoExecute untolerated: leave", builders.NewBinding("a").ScheduledTo("member1", 2).ScheduledTo("member2", 2), []string{"member2"}, 0},
		{"NoSchedule only: stay", builders.NewBinding("a").ScheduledTo("member3", 2), nil, 0},
		{"not on the tainted cluster: nothing", builders.NewBinding("a").ScheduledTo("member1", 2), nil, 0},
		{"tolerated for ever: stay", builders.NewBinding("a").ScheduledTo("member2", 2).WithToleration(toleration(nil)), nil, 0},
		{"tolerated for 5 minutes, 1 passed: stay, look again in 4", builders.NewBinding("a").ScheduledTo("member2", 2).WithToleration(toleration(ptr.To[int64](300))), nil, 4 * time.Minute},
		{"tolerated for 30s, 1 minute passed: leave", builders.NewBinding("a").ScheduledTo("member2", 2).WithToleration(toleration(ptr.To[int64](30))), []string{"member2"}, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := tc.binding.Build()
			reqs, next := evictionRequests(&b.Spec, nil, clusters, now)
			var got []string
			for _, r := range reqs {
				got = append(got, r.cluster)
			}
			if len(got) != len(tc.want) || (len(got) > 0 && got[0] != tc.want[0]) || next != tc.wantNext {
				t.Fatalf("got %v next %s, want %v next %s", got, next, tc.want, tc.wantNext)
			}
		})
	}
}

// TestEvictionPlacement: the binding moves only when the scheduler finds
// a placement without the cluster; the tasks carry Karmada's fields.
func TestEvictionPlacement(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		t.Fatal(err)
	}
	sched := core.New(fw, core.Steps{})
	member2 := taintedCluster("member2", corev1.TaintEffectNoExecute, now)
	fleet := []*clusterv1alpha1.Cluster{readyCluster("member1"), member2}

	t.Run("divided over two: all replicas to the survivor", func(t *testing.T) {
		b := builders.NewBinding("web").WithReplicas(4).Divided(policyv1alpha1.ReplicaDivisionPreferenceWeighted).
			WithClusterNames("member1", "member2").ScheduledTo("member1", 2).ScheduledTo("member2", 2).Build()
		reqs, _ := evictionRequests(&b.Spec, nil, fleet, now)
		trial := evictedSpec(&b.Spec, reqs, metav1.NewTime(now))
		res, err := sched.Schedule(context.Background(), core.Input{Spec: trial, Status: &b.Status, UID: "u", Clusters: fleet})
		if err != nil || !placesReplicas(res.Clusters, trial.Replicas) {
			t.Fatalf("schedule: %v %v", res.Clusters, err)
		}
		if len(res.Clusters) != 1 || res.Clusters[0].Name != "member1" || res.Clusters[0].Replicas != 4 {
			t.Fatalf("clusters %v, want member1 (4)", res.Clusters)
		}
		task := trial.GracefulEvictionTasks[0]
		if task.FromCluster != "member2" || task.Reason != "TaintUntolerated" || task.Producer != "TaintManager" ||
			task.PurgeMode != policyv1alpha1.PurgeModeGracefully || *task.Replicas != 2 || task.CreationTimestamp == nil {
			t.Fatalf("task %+v", task)
		}
	})
	t.Run("only the tainted cluster allowed: no placement, stays", func(t *testing.T) {
		b := builders.NewBinding("web").WithReplicas(4).WithClusterNames("member2").ScheduledTo("member2", 4).Build()
		reqs, _ := evictionRequests(&b.Spec, nil, fleet, now)
		trial := evictedSpec(&b.Spec, reqs, metav1.NewTime(now))
		res, err := sched.Schedule(context.Background(), core.Input{Spec: trial, Status: &b.Status, UID: "u", Clusters: fleet})
		if err == nil && placesReplicas(res.Clusters, trial.Replicas) {
			t.Fatalf("placed %v; the only allowed cluster is leaving", res.Clusters)
		}
	})
	t.Run("purge mode from the policy's cluster failover", func(t *testing.T) {
		b := builders.NewBinding("web").WithReplicas(1).ScheduledTo("member2", 1).Build()
		b.Spec.Failover = &policyv1alpha1.FailoverBehavior{Cluster: &policyv1alpha1.ClusterFailoverBehavior{PurgeMode: policyv1alpha1.PurgeModeDirectly}}
		reqs, _ := evictionRequests(&b.Spec, nil, fleet, now)
		if got := evictedSpec(&b.Spec, reqs, metav1.NewTime(now)).GracefulEvictionTasks[0].PurgeMode; got != policyv1alpha1.PurgeModeDirectly {
			t.Fatalf("purge mode %s", got)
		}
	})
}

func TestEvictionLimiter(t *testing.T) {
	healthy := []*clusterv1alpha1.Cluster{readyCluster("a"), readyCluster("b"), taintedCluster("c", corev1.TaintEffectNoExecute, time.Now())}
	mostlyDown := []*clusterv1alpha1.Cluster{readyCluster("a"), taintedCluster("b", corev1.TaintEffectNoExecute, time.Now()), taintedCluster("c", corev1.TaintEffectNoExecute, time.Now())}
	allDown := []*clusterv1alpha1.Cluster{taintedCluster("b", corev1.TaintEffectNoExecute, time.Now())}

	l := newEvictionLimiter(EvictionOptions{Rate: 1000, SecondaryRate: 0, UnhealthyThreshold: 0.55})
	if !l.allow(healthy) {
		t.Error("one cluster of three down: evictions must run at the primary rate")
	}
	if l.allow(mostlyDown) {
		t.Error("two of three down with secondary rate 0: evictions must stop")
	}
	if l.allow(allDown) {
		t.Error("every cluster down: nothing may be evicted")
	}
	slow := newEvictionLimiter(EvictionOptions{Rate: 0.001, SecondaryRate: 0.001, UnhealthyThreshold: 0.55})
	if !slow.allow(healthy) || slow.allow(healthy) {
		t.Error("a burst of one, then the rate")
	}
}

func TestEvictionRetryAfter(t *testing.T) {
	healthy := []*clusterv1alpha1.Cluster{readyCluster("a"), readyCluster("b"), taintedCluster("c", corev1.TaintEffectNoExecute, time.Now())}
	mostlyDown := []*clusterv1alpha1.Cluster{readyCluster("a"), taintedCluster("b", corev1.TaintEffectNoExecute, time.Now()), taintedCluster("c", corev1.TaintEffectNoExecute, time.Now())}
	l := newEvictionLimiter(EvictionOptions{Rate: 0.5, SecondaryRate: 0.01, UnhealthyThreshold: 0.55})
	for _, tc := range []struct {
		name     string
		clusters []*clusterv1alpha1.Cluster
		queued   int
		want     time.Duration
	}{
		{"one waiting at the primary rate", healthy, 1, 2 * time.Second},
		{"ten waiting share the primary rate", healthy, 10, 20 * time.Second},
		{"secondary rate", mostlyDown, 1, 100 * time.Second},
		{"capped", mostlyDown, 100, 10 * time.Minute},
	} {
		if got := l.retryAfter(tc.clusters, tc.queued); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

// A cluster failover carries failover.cluster.statePreservation's values
// from the copy left — the last ones its status reported, even once it
// reports nothing — and names the clusters that ran the workload before,
// which do not get them.
func TestClusterFailoverPreservesState(t *testing.T) {
	now := time.Now()
	tainted := &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "member2"},
		Spec: clusterv1alpha1.ClusterSpec{Taints: []corev1.Taint{{Key: "cluster.karmada.io/not-ready", Effect: corev1.TaintEffectNoExecute}}}}
	b := builders.NewBinding("a").ScheduledTo("member1", 1).ScheduledTo("member2", 1).Build()
	b.Spec.Failover = &policyv1alpha1.FailoverBehavior{Cluster: &policyv1alpha1.ClusterFailoverBehavior{
		StatePreservation: &policyv1alpha1.StatePreservation{Rules: []policyv1alpha1.StatePreservationRule{
			{AliasLabelName: "example.com/leader", JSONPath: "{.leader}"}}}}}
	b.Status.AggregatedStatus = []workv1alpha2.AggregatedStatusItem{{ClusterName: "member2",
		Status: &runtime.RawExtension{Raw: []byte(`{"leader":"pod-7"}`)}}}
	var states lastStates
	k := binding.Key{Namespace: "default", Name: "a-deployment"}
	states.observe(k, &b.Spec, &b.Status)
	b.Status.AggregatedStatus = nil // member2 stopped reporting
	reqs, _ := evictionRequests(&b.Spec, states.observe(k, &b.Spec, &b.Status), []*clusterv1alpha1.Cluster{tainted}, now)
	if len(reqs) != 1 || reqs[0].preserved["example.com/leader"] != "pod-7" {
		t.Fatalf("requests %+v", reqs)
	}
	out := evictedSpec(&b.Spec, reqs, metav1.NewTime(now))
	if len(out.GracefulEvictionTasks) != 1 {
		t.Fatalf("tasks %+v", out.GracefulEvictionTasks)
	}
	task := out.GracefulEvictionTasks[0]
	if task.PreservedLabelState["example.com/leader"] != "pod-7" || strings.Join(task.ClustersBeforeFailover, ",") != "member1,member2" {
		t.Errorf("task %+v", task)
	}
	if task.FromCluster != "member2" || !strings.HasPrefix(task.Message, "cluster member2: ") || !strings.Contains(task.Message, "not-ready") {
		t.Errorf("task from %s with message %q, want member2's taint named", task.FromCluster, task.Message)
	}
}
