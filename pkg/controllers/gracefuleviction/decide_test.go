package gracefuleviction

import (
	"fmt"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestDecideTask(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	created := metav1.NewTime(t0)
	task := func(mut func(*workv1alpha2.GracefulEvictionTask)) workv1alpha2.GracefulEvictionTask {
		tk := workv1alpha2.GracefulEvictionTask{FromCluster: "member2", PurgeMode: policyv1alpha1.PurgeModeGracefully,
			Reason: workv1alpha2.EvictionReasonTaintUntolerated, Producer: workv1alpha2.EvictionProducerTaintManager, CreationTimestamp: &created}
		if mut != nil {
			mut(&tk)
		}
		return tk
	}
	spec := &workv1alpha2.ResourceBindingSpec{Replicas: 4, Clusters: []workv1alpha2.TargetCluster{{Name: "member1", Replicas: 4}}}
	item := func(health workv1alpha2.ResourceHealth, available int) workv1alpha2.AggregatedStatusItem {
		raw := []byte(fmt.Sprintf(`{"replicas":4,"availableReplicas":%d}`, available))
		return workv1alpha2.AggregatedStatusItem{ClusterName: "member1", Applied: true, Health: health, Status: &runtime.RawExtension{Raw: raw}}
	}
	healthy := &workv1alpha2.ResourceBindingStatus{AggregatedStatus: []workv1alpha2.AggregatedStatusItem{item(workv1alpha2.ResourceHealthy, 4)}}
	partly := &workv1alpha2.ResourceBindingStatus{AggregatedStatus: []workv1alpha2.AggregatedStatusItem{item(workv1alpha2.ResourceHealthy, 2)}}
	unhealthy := &workv1alpha2.ResourceBindingStatus{AggregatedStatus: []workv1alpha2.AggregatedStatusItem{item(workv1alpha2.ResourceUnhealthy, 2)}}
	empty := &workv1alpha2.ResourceBindingSpec{Replicas: 4}
	grace := 10 * time.Minute
	for _, tc := range []struct {
		name    string
		task    workv1alpha2.GracefulEvictionTask
		spec    *workv1alpha2.ResourceBindingSpec
		status  *workv1alpha2.ResourceBindingStatus
		now     time.Time
		remove  bool
		after   time.Duration
		overdue string
	}{
		{name: "new placement healthy: the old copy goes", task: task(nil), spec: spec, status: healthy, now: t0.Add(time.Second), remove: true},
		{name: "not yet healthy: wait for the grace period", task: task(nil), spec: spec, status: unhealthy, now: t0.Add(time.Minute), after: 9 * time.Minute},
		{name: "healthy verdict but replicas missing: wait", task: task(nil), spec: spec, status: partly, now: t0.Add(time.Minute), after: 9 * time.Minute},
		{name: "past the grace period and not running: stays, overdue", task: task(nil), spec: spec, status: partly, now: t0.Add(11 * time.Minute), overdue: "member1: 2/4 available"},
		{name: "task grace period wins over the default", task: task(func(tk *workv1alpha2.GracefulEvictionTask) { tk.GracePeriodSeconds = ptr.To[int32](30) }), spec: spec, status: unhealthy, now: t0.Add(10 * time.Second), after: 20 * time.Second},
		{name: "an empty placement never counts as healthy", task: task(nil), spec: empty, status: healthy, now: t0.Add(11 * time.Minute), overdue: "the new placement has no cluster"},
		{name: "Directly: at once", task: task(func(tk *workv1alpha2.GracefulEvictionTask) { tk.PurgeMode = policyv1alpha1.PurgeModeDirectly }), spec: spec, status: unhealthy, now: t0, remove: true},
		{name: "Never: kept", task: task(func(tk *workv1alpha2.GracefulEvictionTask) { tk.PurgeMode = policyv1alpha1.Never }), spec: spec, status: healthy, now: t0.Add(time.Hour)},
		{name: "suppressDeletion true: kept", task: task(func(tk *workv1alpha2.GracefulEvictionTask) { tk.SuppressDeletion = ptr.To(true) }), spec: spec, status: healthy, now: t0.Add(time.Hour)},
		{name: "suppressDeletion false: approved, goes", task: task(func(tk *workv1alpha2.GracefulEvictionTask) { tk.SuppressDeletion = ptr.To(false) }), spec: spec, status: unhealthy, now: t0, remove: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := decideTask(tc.task, tc.spec, tc.status, tc.now, grace)
			if d.remove != tc.remove || d.after != tc.after || d.overdue != tc.overdue {
				t.Fatalf("got %+v, want remove=%v after=%s overdue=%q", d, tc.remove, tc.after, tc.overdue)
			}
		})
	}
}
