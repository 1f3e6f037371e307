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

// rsReport is what a member reports of a ReplicaSet rendered from template
// generation templateGen and observed by its controller: replicas pods of
// which available are ready and available.
func rsReport(templateGen int64, replicas, available int32, conditions ...appsv1.ReplicaSetCondition) *ReplicaSetStatus {
	return &ReplicaSetStatus{
		Replicas: replicas, FullyLabeledReplicas: replicas, ReadyReplicas: available, AvailableReplicas: available,
		ObservedGeneration: 5, Generation: 5, ResourceTemplateGeneration: templateGen, Conditions: conditions,
	}
}

func replicaFailure(reason string) appsv1.ReplicaSetCondition {
	return appsv1.ReplicaSetCondition{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: reason,
		Message: "pods \"web-x\" is forbidden: exceeded quota", LastTransitionTime: earlier}
}

func failureIn(reason, clusters string) appsv1.ReplicaSetCondition {
	return appsv1.ReplicaSetCondition{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: reason,
		Message: "Replicas could not be created or deleted in cluster(s) " + clusters + ".", LastTransitionTime: aggregatedAt}
}

func TestAggregateStatusOfReplicaSet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		recorded []appsv1.ReplicaSetCondition
		items    func(t *testing.T) []workv1alpha2.AggregatedStatusItem
		want     appsv1.ReplicaSetStatus
	}{
		{
			name: "Counters add up over members and observedGeneration advances when every member has caught up.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", rsReport(3, 2, 2)), report(t, "m2", rsReport(3, 3, 1))}
			},
			want: appsv1.ReplicaSetStatus{ObservedGeneration: 3, Replicas: 5, FullyLabeledReplicas: 5, ReadyReplicas: 3, AvailableReplicas: 3},
		},
		{
			name: "observedGeneration stays when a member still runs what was rendered from an older template generation.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", rsReport(3, 1, 1)), report(t, "m2", rsReport(2, 1, 1))}
			},
			want: appsv1.ReplicaSetStatus{ObservedGeneration: 2, Replicas: 2, FullyLabeledReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2},
		},
		{
			name: "A member that has not reported holds observedGeneration back.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", rsReport(3, 1, 1)), report(t, "m2", nil)}
			},
			want: appsv1.ReplicaSetStatus{ObservedGeneration: 2, Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1},
		},
		{
			name: "ReplicaFailure in members is True with the first member's reason, naming them in cluster order.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m3", rsReport(3, 1, 0, replicaFailure("FailedDelete"))),
					report(t, "m2", rsReport(3, 1, 1)),
					report(t, "m1", rsReport(3, 1, 0, replicaFailure("FailedCreate"))),
				}
			},
			want: appsv1.ReplicaSetStatus{ObservedGeneration: 3, Replicas: 3, FullyLabeledReplicas: 3, ReadyReplicas: 1, AvailableReplicas: 1,
				Conditions: []appsv1.ReplicaSetCondition{failureIn("FailedCreate", "m1, m3")}},
		},
		{
			name: "A ReplicaFailure that is False in a member is no failure.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				c := replicaFailure("FailedCreate")
				c.Status = corev1.ConditionFalse
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", rsReport(3, 1, 1, c))}
			},
			want: appsv1.ReplicaSetStatus{ObservedGeneration: 3, Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1},
		},
		{
			name: "A ReplicaFailure still True keeps the transition time the template records.",
			recorded: []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate",
				Message: "Replicas could not be created or deleted in cluster(s) m1, m2.", LastTransitionTime: muchEarlier}},
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", rsReport(3, 1, 0, replicaFailure("FailedCreate")))}
			},
			want: appsv1.ReplicaSetStatus{ObservedGeneration: 3, Replicas: 1, FullyLabeledReplicas: 1,
				Conditions: []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate",
					Message: "Replicas could not be created or deleted in cluster(s) m1.", LastTransitionTime: muchEarlier}}},
		},
		{
			name: "A ReplicaFailure no member reports any more is dropped.",
			recorded: []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetReplicaFailure, Status: corev1.ConditionTrue, Reason: "FailedCreate",
				Message: "Replicas could not be created or deleted in cluster(s) m1.", LastTransitionTime: muchEarlier}},
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", rsReport(3, 1, 1))}
			},
			want: appsv1.ReplicaSetStatus{ObservedGeneration: 3, Replicas: 1, FullyLabeledReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1},
		},
		{
			name:  "A template without member clusters keeps its observedGeneration.",
			items: func(*testing.T) []workv1alpha2.AggregatedStatusItem { return nil },
			want:  appsv1.ReplicaSetStatus{ObservedGeneration: 2},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: ptr[int32](3)},
				Status: appsv1.ReplicaSetStatus{ObservedGeneration: 2, Conditions: tc.recorded}}
			rs.Generation = 3
			got := aggregateAs[appsv1.ReplicaSetStatus](t, object(t, "apps/v1", "ReplicaSet", rs), tc.items(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealthOfReplicaSet(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		replicas *int32
		status   appsv1.ReplicaSetStatus
		want     workv1alpha2.ResourceHealth
	}{
		{
			name:     "A ReplicaSet whose every wanted replica is available is healthy.",
			replicas: ptr[int32](3), status: appsv1.ReplicaSetStatus{ObservedGeneration: 2, AvailableReplicas: 3},
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name:     "A ReplicaSet whose controller has not observed the latest generation is unhealthy.",
			replicas: ptr[int32](3), status: appsv1.ReplicaSetStatus{ObservedGeneration: 1, AvailableReplicas: 3},
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name:     "A ReplicaSet with fewer available replicas than wanted is unhealthy.",
			replicas: ptr[int32](3), status: appsv1.ReplicaSetStatus{ObservedGeneration: 2, AvailableReplicas: 2},
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name:   "A ReplicaSet without spec.replicas wants one replica.",
			status: appsv1.ReplicaSetStatus{ObservedGeneration: 2},
			want:   workv1alpha2.ResourceUnhealthy,
		},
		{
			name:     "A ReplicaSet scaled to zero is healthy once observed.",
			replicas: ptr[int32](0), status: appsv1.ReplicaSetStatus{ObservedGeneration: 2},
			want: workv1alpha2.ResourceHealthy,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			rs := &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: tc.replicas}, Status: tc.status}
			rs.Generation = 2
			if got := Health(object(t, "apps/v1", "ReplicaSet", rs)); got != tc.want {
				t.Errorf("Health = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReflectStatusOfReplicaSet(t *testing.T) {
	t.Parallel()
	cond := replicaFailure("FailedCreate")
	rs := &appsv1.ReplicaSet{Status: appsv1.ReplicaSetStatus{
		Replicas: 4, FullyLabeledReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 1, TerminatingReplicas: ptr[int32](1),
		ObservedGeneration: 6, Conditions: []appsv1.ReplicaSetCondition{cond},
	}}
	rs.Generation = 7
	rs.Annotations = map[string]string{workv1alpha1.ResourceTemplateGenerationAnnotation: "4"}
	want := ReplicaSetStatus{Replicas: 4, FullyLabeledReplicas: 3, ReadyReplicas: 2, AvailableReplicas: 1, ObservedGeneration: 6,
		Generation: 7, ResourceTemplateGeneration: 4, Conditions: []appsv1.ReplicaSetCondition{cond}}
	t.Run("A ReplicaSet records its counters, generations, template generation and conditions, and nothing else of its status.", func(t *testing.T) {
		t.Parallel()
		got, fields := reflectAs[ReplicaSetStatus](t, object(t, "apps/v1", "ReplicaSet", rs))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("status differs (-want +got):\n%s", diff)
		}
		if _, ok := fields["terminatingReplicas"]; ok {
			t.Error("status carries terminatingReplicas, which mco does not collect")
		}
	})
}
