package rebalance

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

var web = appsv1alpha1.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "prod", Name: "web"}

func TestNewRebalancer(t *testing.T) {
	t.Parallel()
	r := newRebalancer(&flags{ttl: 90 * time.Second}, []appsv1alpha1.ObjectReference{web})
	if r.GenerateName != "rebalance-" || r.Name != "" || *r.Spec.TTLSecondsAfterFinished != 90 {
		t.Errorf("rebalancer = %+v", r)
	}
	r = newRebalancer(&flags{name: "after-outage", ttl: -time.Second}, []appsv1alpha1.ObjectReference{web})
	if r.Name != "after-outage" || r.Spec.TTLSecondsAfterFinished != nil {
		t.Errorf("rebalancer = %+v", r)
	}
}

func TestRescheduled(t *testing.T) {
	t.Parallel()
	t0 := metav1.NewTime(time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC))
	t1 := metav1.NewTime(t0.Add(time.Second))
	tests := []struct {
		name      string
		gen       int64
		observed  int64
		triggered *metav1.Time
		last      *metav1.Time
		want      bool
	}{
		{name: "decision after the request", gen: 3, observed: 3, triggered: &t0, last: &t1, want: true},
		{name: "decision in the request's second", gen: 3, observed: 3, triggered: &t0, last: &t0, want: true},
		{name: "decision before the request", gen: 3, observed: 3, triggered: &t1, last: &t0},
		{name: "spec not observed yet", gen: 4, observed: 3, triggered: &t0, last: &t1},
		{name: "never scheduled", gen: 1, observed: 1},
	}
	for _, tt := range tests {
		m := &metav1.ObjectMeta{Generation: tt.gen}
		spec := &workv1alpha2.ResourceBindingSpec{RescheduleTriggeredAt: tt.triggered}
		st := &workv1alpha2.ResourceBindingStatus{SchedulerObservedGeneration: tt.observed, LastScheduledTime: tt.last}
		if got := rescheduled(m, spec, st); got != tt.want {
			t.Errorf("%s: rescheduled = %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	b := &workv1alpha2.ResourceBinding{Spec: workv1alpha2.ResourceBindingSpec{Replicas: 4,
		Clusters: []workv1alpha2.TargetCluster{{Name: "member1", Replicas: 2}, {Name: "member2", Replicas: 2}}}}
	if got, want := successLine(web, b), "deployment/web (namespace prod) rebalanced: member1 2, member2 2"; got != want {
		t.Errorf("successLine = %q, want %q", got, want)
	}
	ns := appsv1alpha1.ObjectReference{APIVersion: "v1", Kind: "Namespace", Name: "team"}
	nb := &workv1alpha2.ResourceBinding{Spec: workv1alpha2.ResourceBindingSpec{Clusters: []workv1alpha2.TargetCluster{{Name: "member1"}}}}
	if got, want := successLine(ns, nb), "namespace/team rebalanced: member1"; got != want {
		t.Errorf("successLine = %q, want %q", got, want)
	}
	o := appsv1alpha1.ObservedWorkload{Workload: web, Result: appsv1alpha1.RebalanceFailed, Reason: appsv1alpha1.RebalanceObjectNotFound}
	if got, want := failureLine(o), "deployment/web (namespace prod) failed: ReferencedBindingNotFound: it does not exist, or no policy propagates it"; got != want {
		t.Errorf("failureLine = %q, want %q", got, want)
	}
}
