package cluster

import (
	"testing"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/controllers/shared"
)

func TestWithReadyTaints(t *testing.T) {
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	notReady := corev1.Taint{Key: clusterv1alpha1.TaintClusterNotReady, Effect: corev1.TaintEffectNoSchedule}
	unreachable := corev1.Taint{Key: clusterv1alpha1.TaintClusterUnreachable, Effect: corev1.TaintEffectNoSchedule}
	noExecute := corev1.Taint{Key: clusterv1alpha1.TaintClusterNotReady, Effect: corev1.TaintEffectNoExecute}
	user := corev1.Taint{Key: "team", Value: "a", Effect: corev1.TaintEffectNoSchedule}
	cond := func(s metav1.ConditionStatus) *metav1.Condition { return &metav1.Condition{Type: "Ready", Status: s} }
	for _, tc := range []struct {
		name    string
		taints  []corev1.Taint
		ready   *metav1.Condition
		want    []string
		changed bool
	}{
		{"ready, nothing to do", []corev1.Taint{user}, cond(metav1.ConditionTrue), []string{"team"}, false},
		{"false adds not-ready", []corev1.Taint{user}, cond(metav1.ConditionFalse), []string{"team", "cluster.karmada.io/not-ready:NoSchedule"}, true},
		{"unknown swaps not-ready for unreachable", []corev1.Taint{notReady, noExecute}, cond(metav1.ConditionUnknown), []string{"cluster.karmada.io/not-ready:NoExecute", "cluster.karmada.io/unreachable:NoSchedule"}, true},
		{"ready removes both, keeps NoExecute (a policy's)", []corev1.Taint{notReady, unreachable, noExecute}, cond(metav1.ConditionTrue), []string{"cluster.karmada.io/not-ready:NoExecute"}, true},
		{"already tainted", []corev1.Taint{notReady}, cond(metav1.ConditionFalse), []string{"cluster.karmada.io/not-ready:NoSchedule"}, false},
		{"duplicates collapse", []corev1.Taint{notReady, notReady}, cond(metav1.ConditionFalse), []string{"cluster.karmada.io/not-ready:NoSchedule"}, true},
		{"no condition yet", []corev1.Taint{notReady}, nil, nil, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, changed := withReadyTaints(tc.taints, tc.ready, now)
			var keys []string
			for _, g := range got {
				k := g.Key
				if g.Key != "team" {
					k += ":" + string(g.Effect)
				}
				keys = append(keys, k)
			}
			if changed != tc.changed || len(keys) != len(tc.want) {
				t.Fatalf("got %v (changed %v), want %v (changed %v)", keys, changed, tc.want, tc.changed)
			}
			for i := range keys {
				if keys[i] != tc.want[i] {
					t.Fatalf("got %v, want %v", keys, tc.want)
				}
			}
		})
	}
}

func TestNeedsUnknown(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	h := shared.ClusterHealth{MonitorGracePeriod: 40 * time.Second, StartupGracePeriod: 60 * time.Second}
	cluster := func(created time.Time, ready metav1.ConditionStatus) *clusterv1alpha1.Cluster {
		return &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{CreationTimestamp: metav1.NewTime(created)},
			Status: clusterv1alpha1.ClusterStatus{Conditions: []metav1.Condition{{Type: "Ready", Status: ready}}}}
	}
	lease := func(renewed time.Time) *coordinationv1.Lease {
		r := metav1.NewMicroTime(renewed)
		return &coordinationv1.Lease{Spec: coordinationv1.LeaseSpec{RenewTime: &r}}
	}
	old := t0.Add(-time.Hour)
	for _, tc := range []struct {
		name    string
		c       *clusterv1alpha1.Cluster
		lease   *coordinationv1.Lease
		started time.Time
		now     time.Time
		want    bool
	}{
		{"renewed recently", cluster(old, metav1.ConditionTrue), lease(t0.Add(-10 * time.Second)), old, t0, false},
		{"not renewed past grace", cluster(old, metav1.ConditionTrue), lease(t0.Add(-41 * time.Second)), old, t0, true},
		{"already unknown", cluster(old, metav1.ConditionUnknown), lease(t0.Add(-41 * time.Second)), old, t0, false},
		{"new cluster without lease within startup grace", cluster(t0.Add(-50*time.Second), metav1.ConditionTrue), nil, old, t0, false},
		{"new cluster without lease past startup grace", cluster(t0.Add(-61*time.Second), metav1.ConditionTrue), nil, old, t0, true},
		{"just restarted: the old lease does not count", cluster(old, metav1.ConditionTrue), lease(old), t0.Add(-50 * time.Second), t0, false},
		{"restarted and still not renewed", cluster(old, metav1.ConditionTrue), lease(old), t0.Add(-61 * time.Second), t0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := needsUnknown(tc.c, tc.lease, tc.started, tc.now, h); got != tc.want {
				t.Fatalf("needsUnknown = %v, want %v", got, tc.want)
			}
		})
	}
}
