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

package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// dsReport is what a member reports of a DaemonSet rendered from template
// generation templateGen and observed by its controller, on nodes nodes of
// which updated run the updated pod and ready are ready and available.
func dsReport(templateGen int64, nodes, updated, ready int32) *DaemonSetStatus {
	return &DaemonSetStatus{
		CurrentNumberScheduled: nodes, DesiredNumberScheduled: nodes, UpdatedNumberScheduled: updated,
		NumberReady: ready, NumberAvailable: ready, NumberUnavailable: nodes - ready,
		ObservedGeneration: 5, Generation: 5, ResourceTemplateGeneration: templateGen,
	}
}

func TestAggregateStatusOfDaemonSet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		items func(t *testing.T) []workv1alpha2.AggregatedStatusItem
		want  appsv1.DaemonSetStatus
	}{
		{
			name: "Counters add up over members and observedGeneration advances when every member has caught up.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				misscheduled := dsReport(3, 2, 2, 1)
				misscheduled.NumberMisscheduled = 1
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", dsReport(3, 3, 3, 3)), report(t, "m2", misscheduled)}
			},
			want: appsv1.DaemonSetStatus{ObservedGeneration: 3, CurrentNumberScheduled: 5, NumberMisscheduled: 1, DesiredNumberScheduled: 5,
				NumberReady: 4, UpdatedNumberScheduled: 5, NumberAvailable: 4, NumberUnavailable: 1},
		},
		{
			name: "observedGeneration stays when a member still runs what was rendered from an older template generation.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", dsReport(3, 1, 1, 1)), report(t, "m2", dsReport(2, 1, 1, 1))}
			},
			want: appsv1.DaemonSetStatus{ObservedGeneration: 2, CurrentNumberScheduled: 2, DesiredNumberScheduled: 2,
				NumberReady: 2, UpdatedNumberScheduled: 2, NumberAvailable: 2},
		},
		{
			name: "observedGeneration stays when a member's controller has not observed the member's latest generation.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				behind := dsReport(3, 1, 0, 1)
				behind.ObservedGeneration = 4
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", dsReport(3, 1, 1, 1)), report(t, "m2", behind)}
			},
			want: appsv1.DaemonSetStatus{ObservedGeneration: 2, CurrentNumberScheduled: 2, DesiredNumberScheduled: 2,
				NumberReady: 2, UpdatedNumberScheduled: 1, NumberAvailable: 2},
		},
		{
			name: "A member that has not reported holds observedGeneration back and adds nothing.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", dsReport(3, 2, 2, 2)), report(t, "m2", nil)}
			},
			want: appsv1.DaemonSetStatus{ObservedGeneration: 2, CurrentNumberScheduled: 2, DesiredNumberScheduled: 2,
				NumberReady: 2, UpdatedNumberScheduled: 2, NumberAvailable: 2},
		},
		{
			name:  "A template without member clusters keeps its observedGeneration.",
			items: func(*testing.T) []workv1alpha2.AggregatedStatusItem { return nil },
			want:  appsv1.DaemonSetStatus{ObservedGeneration: 2},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ds := &appsv1.DaemonSet{Status: appsv1.DaemonSetStatus{ObservedGeneration: 2, NumberReady: 9}}
			ds.Generation = 3
			got := aggregateAs[appsv1.DaemonSetStatus](t, object(t, "apps/v1", "DaemonSet", ds), tc.items(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealthOfDaemonSet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		status appsv1.DaemonSetStatus
		want   workv1alpha2.ResourceHealth
	}{
		{
			name:   "A DaemonSet running an updated, available pod on every node it should is healthy.",
			status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberAvailable: 3},
			want:   workv1alpha2.ResourceHealthy,
		},
		{
			name:   "A DaemonSet whose controller has not observed the latest generation is unhealthy.",
			status: appsv1.DaemonSetStatus{ObservedGeneration: 1, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberAvailable: 3},
			want:   workv1alpha2.ResourceUnhealthy,
		},
		{
			name:   "A DaemonSet with a node still running an old pod is unhealthy.",
			status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 2, NumberAvailable: 3},
			want:   workv1alpha2.ResourceUnhealthy,
		},
		{
			name:   "A DaemonSet with an updated pod not available yet is unhealthy.",
			status: appsv1.DaemonSetStatus{ObservedGeneration: 2, DesiredNumberScheduled: 3, UpdatedNumberScheduled: 3, NumberAvailable: 2},
			want:   workv1alpha2.ResourceUnhealthy,
		},
		{
			name:   "A DaemonSet that no node should run is healthy once observed.",
			status: appsv1.DaemonSetStatus{ObservedGeneration: 2},
			want:   workv1alpha2.ResourceHealthy,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ds := &appsv1.DaemonSet{Status: tc.status}
			ds.Generation = 2
			if got := Health(object(t, "apps/v1", "DaemonSet", ds)); got != tc.want {
				t.Errorf("Health = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReflectStatusOfDaemonSet(t *testing.T) {
	t.Parallel()
	cond := appsv1.DaemonSetCondition{Type: "Example", Status: corev1.ConditionFalse, Reason: "Because", LastTransitionTime: aggregatedAt}
	ds := &appsv1.DaemonSet{Status: appsv1.DaemonSetStatus{
		CurrentNumberScheduled: 4, NumberMisscheduled: 1, DesiredNumberScheduled: 5, NumberReady: 3, ObservedGeneration: 6,
		UpdatedNumberScheduled: 2, NumberAvailable: 3, NumberUnavailable: 2, CollisionCount: ptr[int32](1),
		Conditions: []appsv1.DaemonSetCondition{cond},
	}}
	ds.Generation = 7
	ds.Annotations = map[string]string{workv1alpha1.ResourceTemplateGenerationAnnotation: "4"}
	want := DaemonSetStatus{
		CurrentNumberScheduled: 4, NumberMisscheduled: 1, DesiredNumberScheduled: 5, NumberReady: 3, UpdatedNumberScheduled: 2,
		NumberAvailable: 3, NumberUnavailable: 2, ObservedGeneration: 6, Generation: 7, ResourceTemplateGeneration: 4,
		Conditions: []appsv1.DaemonSetCondition{cond},
	}
	t.Run("A DaemonSet records its counters, generations, template generation and conditions, and nothing else of its status.", func(t *testing.T) {
		t.Parallel()
		got, fields := reflectAs[DaemonSetStatus](t, object(t, "apps/v1", "DaemonSet", ds))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("status differs (-want +got):\n%s", diff)
		}
		if _, ok := fields["collisionCount"]; ok {
			t.Error("status carries collisionCount, which mco does not collect")
		}
	})
}
