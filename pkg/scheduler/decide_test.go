package scheduler

import (
	"errors"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/scheduler/core"
)

func TestDecide(t *testing.T) {
	t.Parallel()
	now := metav1.NewTime(time.Unix(1000, 0))
	earlier := metav1.NewTime(time.Unix(10, 0))
	two := []workv1alpha2.TargetCluster{{Name: "a", Replicas: 1}, {Name: "b", Replicas: 1}}
	scheduledStatus := workv1alpha2.ResourceBindingStatus{
		SchedulerObservedGeneration: 3, LastScheduledTime: &earlier,
		Conditions: []metav1.Condition{{Type: workv1alpha2.Scheduled, Status: metav1.ConditionTrue, ObservedGeneration: 3,
			Reason: workv1alpha2.BindingReasonSuccess, Message: "Binding has been scheduled successfully.", LastTransitionTime: earlier}},
	}
	cases := []struct {
		name         string
		spec         workv1alpha2.ResourceBindingSpec
		status       workv1alpha2.ResourceBindingStatus
		res          core.Result
		err          error
		wantClusters bool
		wantStatus   bool
		wantReason   string
		wantResult   string
	}{
		{name: "A first decision writes the clusters and a Scheduled condition.",
			res: core.Result{Clusters: two}, wantClusters: true, wantStatus: true,
			wantReason: workv1alpha2.BindingReasonSuccess, wantResult: metrics.ResultScheduled},
		{name: "The same decision on unchanged inputs writes nothing.",
			spec: workv1alpha2.ResourceBindingSpec{Clusters: two}, status: scheduledStatus,
			res: core.Result{Clusters: []workv1alpha2.TargetCluster{two[1], two[0]}}, wantResult: metrics.ResultScheduled},
		{name: "A changed decision rewrites the clusters.",
			spec: workv1alpha2.ResourceBindingSpec{Clusters: two}, status: scheduledStatus,
			res: core.Result{Clusters: two[:1]}, wantClusters: true, wantStatus: true,
			wantReason: workv1alpha2.BindingReasonSuccess, wantResult: metrics.ResultScheduled},
		{name: "No fitting cluster leaves the clusters and reports NoClusterFit.",
			spec: workv1alpha2.ResourceBindingSpec{Clusters: two}, status: scheduledStatus,
			err: &core.UnschedulableError{Message: "0/2 clusters are available", NoClusterFit: true}, wantStatus: true,
			wantReason: workv1alpha2.BindingReasonNoClusterFit, wantResult: metrics.ResultUnschedulable},
		{name: "Too little capacity reports Unschedulable.",
			err: &core.UnschedulableError{Message: "not enough"}, wantStatus: true,
			wantReason: workv1alpha2.BindingReasonUnschedulable, wantResult: metrics.ResultUnschedulable},
		{name: "An internal error reports SchedulerError.",
			err: errors.New("boom"), wantStatus: true,
			wantReason: workv1alpha2.BindingReasonSchedulerError, wantResult: metrics.ResultError},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			out := decide(&c.spec, &c.status, 3, c.res, c.err, now)
			if (out.clusters != nil) != c.wantClusters {
				t.Errorf("clusters written = %v, want %v", out.clusters != nil, c.wantClusters)
			}
			if (out.status != nil) != c.wantStatus {
				t.Fatalf("status written = %v, want %v", out.status != nil, c.wantStatus)
			}
			if out.result != c.wantResult {
				t.Errorf("result = %q, want %q", out.result, c.wantResult)
			}
			if out.status != nil {
				cond := meta.FindStatusCondition(out.status.Conditions, workv1alpha2.Scheduled)
				if cond == nil || cond.Reason != c.wantReason || cond.ObservedGeneration != 3 {
					t.Errorf("condition = %+v, want reason %s at generation 3", cond, c.wantReason)
				}
			}
		})
	}
}

// TestDecideAnswersRescheduleRequest: a fresh decision that keeps the
// placement still records the time, no earlier than the request, so the
// request is answered and not taken for pending again.
func TestDecideAnswersRescheduleRequest(t *testing.T) {
	t.Parallel()
	now := metav1.NewTime(time.Unix(1000, 0))
	two := []workv1alpha2.TargetCluster{{Name: "a", Replicas: 1}, {Name: "b", Replicas: 1}}
	for _, tc := range []struct {
		name      string
		requested time.Time
		want      time.Time
	}{
		{name: "requested before now", requested: time.Unix(990, 0), want: time.Unix(1000, 0)},
		{name: "requested a second ahead", requested: time.Unix(1001, 0), want: time.Unix(1001, 0)},
	} {
		requested := metav1.NewTime(tc.requested)
		last := metav1.NewTime(time.Unix(900, 0))
		spec := &workv1alpha2.ResourceBindingSpec{Clusters: two, RescheduleTriggeredAt: &requested}
		status := &workv1alpha2.ResourceBindingStatus{LastScheduledTime: &last}
		out := decide(spec, status, 2, core.Result{Clusters: two}, nil, now)
		if out.clusters != nil || out.status == nil || !out.status.LastScheduledTime.Time.Equal(tc.want) {
			t.Errorf("%s: clusters %v, status %+v; want the placement kept and lastScheduledTime %v", tc.name, out.clusters, out.status, tc.want)
			continue
		}
		if reschedulePending(spec, out.status) {
			t.Errorf("%s: the request still looks pending", tc.name)
		}
	}
}
