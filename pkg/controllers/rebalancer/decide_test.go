/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package rebalancer

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
)

var (
	web = appsv1alpha1.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}
	api = appsv1alpha1.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "api"}
	crd = appsv1alpha1.ObjectReference{APIVersion: "apiextensions.k8s.io/v1", Kind: "CustomResourceDefinition", Name: "foos.example.com"}
	t0  = time.Date(2026, 12, 4, 10, 0, 0, 0, time.UTC)
)

func ok(w appsv1alpha1.ObjectReference) appsv1alpha1.ObservedWorkload {
	return appsv1alpha1.ObservedWorkload{Workload: w, Result: appsv1alpha1.RebalanceSuccessful}
}

func notFound(w appsv1alpha1.ObjectReference) appsv1alpha1.ObservedWorkload {
	return appsv1alpha1.ObservedWorkload{Workload: w, Result: appsv1alpha1.RebalanceFailed, Reason: appsv1alpha1.RebalanceObjectNotFound}
}

func rebalancer(gen int64, workloads []appsv1alpha1.ObjectReference, st appsv1alpha1.WorkloadRebalancerStatus) *appsv1alpha1.WorkloadRebalancer {
	return &appsv1alpha1.WorkloadRebalancer{ObjectMeta: metav1.ObjectMeta{Name: "r", Generation: gen},
		Spec: appsv1alpha1.WorkloadRebalancerSpec{Workloads: workloads}, Status: st}
}

func at(t time.Time) *metav1.Time { m := metav1.NewTime(t); return &m }

func TestPendingAndNextStatus(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name        string
		r           *appsv1alpha1.WorkloadRebalancer
		wantPending []appsv1alpha1.ObjectReference
		got         map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload
		want        appsv1alpha1.WorkloadRebalancerStatus
	}{{
		name:        "first pass: every workload, finished",
		r:           rebalancer(1, []appsv1alpha1.ObjectReference{web, api}, appsv1alpha1.WorkloadRebalancerStatus{}),
		wantPending: []appsv1alpha1.ObjectReference{web, api},
		got:         map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload{web: ok(web), api: notFound(api)},
		want: appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: 1, FinishTime: at(t0),
			ObservedWorkloads: []appsv1alpha1.ObservedWorkload{ok(web), notFound(api)}},
	}, {
		name:        "an error leaves the workload without a result and the rebalancer unfinished",
		r:           rebalancer(1, []appsv1alpha1.ObjectReference{web, api}, appsv1alpha1.WorkloadRebalancerStatus{}),
		wantPending: []appsv1alpha1.ObjectReference{web, api},
		got:         map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload{web: ok(web)},
		want: appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: 1,
			ObservedWorkloads: []appsv1alpha1.ObservedWorkload{ok(web), {Workload: api}}},
	}, {
		name: "a workload added later is the only one done; the others keep their results",
		r: rebalancer(2, []appsv1alpha1.ObjectReference{web, crd}, appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: 1,
			FinishTime: at(t0.Add(-time.Hour)), ObservedWorkloads: []appsv1alpha1.ObservedWorkload{ok(web), notFound(api)}}),
		wantPending: []appsv1alpha1.ObjectReference{crd},
		got:         map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload{crd: ok(crd)},
		want: appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: 2, FinishTime: at(t0),
			ObservedWorkloads: []appsv1alpha1.ObservedWorkload{ok(web), ok(crd)}},
	}, {
		name: "a workload removed from the list: nothing to do, finish time kept",
		r: rebalancer(3, []appsv1alpha1.ObjectReference{web}, appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: 2,
			FinishTime: at(t0.Add(-time.Hour)), ObservedWorkloads: []appsv1alpha1.ObservedWorkload{ok(web), ok(crd)}}),
		want: appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: 3, FinishTime: at(t0.Add(-time.Hour)),
			ObservedWorkloads: []appsv1alpha1.ObservedWorkload{ok(web)}},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.wantPending, pending(tt.r)); diff != "" {
				t.Errorf("pending (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.want, nextStatus(tt.r, tt.got, t0)); diff != "" {
				t.Errorf("status (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTriggerTime(t *testing.T) {
	t.Parallel()
	now := t0.Add(400 * time.Millisecond)
	tests := []struct {
		name      string
		triggered *metav1.Time
		last      *metav1.Time
		want      time.Time
	}{
		{name: "never scheduled", want: t0},
		{name: "scheduled earlier", last: at(t0.Add(-time.Minute)), want: t0},
		{name: "scheduled in this very second: one second later", last: at(t0), want: t0.Add(time.Second)},
		{name: "a later request pending stays", triggered: at(t0.Add(time.Hour)), last: at(t0.Add(-time.Minute)), want: t0.Add(time.Hour)},
	}
	for _, tt := range tests {
		spec := &workv1alpha2.ResourceBindingSpec{RescheduleTriggeredAt: tt.triggered}
		status := &workv1alpha2.ResourceBindingStatus{LastScheduledTime: tt.last}
		if got := triggerTime(spec, status, now); !got.Time.Equal(tt.want) {
			t.Errorf("%s: triggerTime = %v, want %v", tt.name, got.Time, tt.want)
		}
	}
}

func TestExpiry(t *testing.T) {
	t.Parallel()
	ttl := int32(30)
	finished := rebalancer(1, []appsv1alpha1.ObjectReference{web}, appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: 1, FinishTime: at(t0)})
	finished.Spec.TTLSecondsAfterFinished = &ttl
	if got, ok := expiry(finished); !ok || !got.Equal(t0.Add(30*time.Second)) {
		t.Errorf("expiry = %v, %v; want %v", got, ok, t0.Add(30*time.Second))
	}
	noTTL := finished.DeepCopy()
	noTTL.Spec.TTLSecondsAfterFinished = nil
	edited := finished.DeepCopy()
	edited.Generation = 2
	for name, r := range map[string]*appsv1alpha1.WorkloadRebalancer{"no TTL": noTTL, "edited since": edited} {
		if _, ok := expiry(r); ok {
			t.Errorf("%s: expiry set", name)
		}
	}
}

func TestBindingOfWorkload(t *testing.T) {
	t.Parallel()
	if got := bindingKey(web); got != (binding.Key{Namespace: "default", Name: "web-deployment"}) {
		t.Errorf("bindingKey(web) = %v", got)
	}
	if got := bindingKey(crd); got != (binding.Key{Name: "foos.example.com-customresourcedefinition"}) {
		t.Errorf("bindingKey(crd) = %v", got)
	}
	spec := &workv1alpha2.ResourceBindingSpec{Resource: workv1alpha2.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}}
	other := web
	other.APIVersion = "example.com/v1"
	for w, want := range map[appsv1alpha1.ObjectReference]bool{web: true, other: false, api: false} {
		if got := sameTemplate(spec, w); got != want {
			t.Errorf("sameTemplate(%v) = %v, want %v", w, got, want)
		}
	}
}
