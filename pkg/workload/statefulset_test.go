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
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Revisions of the pod template of StatefulSet web, and the revisions mco
// makes of members' update revisions: web- and the first 10 hex digits of
// the SHA-256 of the sorted revisions joined by newlines.
const (
	revOld      = "web-5d8f7c9b4"
	revNew      = "web-7f6d5c4b3"
	revNewNew   = "web-cd71ff7ea4" // revNew, revNew
	revOldNew   = "web-8f1ce8ffa1" // revOld, revNew
	revNewOnly  = "web-a8ec847b5c" // revNew
	revOldOnly  = "web-1c385d9e8c" // revOld
	revNoneNew  = "web-ae8110d29b" // "", revNew
	revNoMember = "web-e3b0c44298" // no revision
)

// stsReport is what a member reports of a StatefulSet rendered from template
// generation templateGen and observed by its controller: replicas ready
// pods, updated of them at revision update, the others at revision current.
func stsReport(templateGen int64, replicas, updated int32, current, update string) *StatefulSetStatus {
	s := &StatefulSetStatus{
		Replicas: replicas, ReadyReplicas: replicas, AvailableReplicas: replicas, UpdatedReplicas: updated,
		CurrentReplicas: replicas - updated, ObservedGeneration: 5, Generation: 5,
		ResourceTemplateGeneration: templateGen, CurrentRevision: current, UpdateRevision: update,
	}
	if current == update {
		s.CurrentReplicas = replicas
	}
	return s
}

// templateStatefulSet is StatefulSet web on mco at generation 3, last
// aggregated for generation 2 as rolled out at revision current.
func templateStatefulSet(current string) *appsv1.StatefulSet {
	s := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: ptr[int32](4)}}
	s.Generation = 3
	s.Status = appsv1.StatefulSetStatus{ObservedGeneration: 2, CurrentRevision: current, UpdateRevision: current}
	return s
}

func TestAggregateStatusOfStatefulSet(t *testing.T) {
	t.Parallel()
	failing := appsv1.StatefulSetCondition{Type: "Unknown", Status: corev1.ConditionTrue, Reason: "Because"}
	cases := []struct {
		name     string
		recorded string // the template's currentRevision
		items    func(t *testing.T) []workv1alpha2.AggregatedStatusItem
		want     appsv1.StatefulSetStatus
	}{
		{
			name: "Counters add up, observedGeneration advances, and both revisions are made of the members' once every member has rolled out.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", stsReport(3, 2, 2, revNew, revNew)), report(t, "m2", stsReport(3, 3, 3, revNew, revNew))}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 3, Replicas: 5, ReadyReplicas: 5, CurrentReplicas: 5, UpdatedReplicas: 5,
				AvailableReplicas: 5, CurrentRevision: revNewNew, UpdateRevision: revNewNew},
		},
		{
			name:     "While a member rolls out, currentRevision stays at the revision last rolled out and updateRevision moves on.",
			recorded: revOldOnly,
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", stsReport(3, 2, 2, revNew, revNew)), report(t, "m2", stsReport(3, 2, 1, revOld, revNew))}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 3, Replicas: 4, ReadyReplicas: 4, CurrentReplicas: 3, UpdatedReplicas: 3,
				AvailableReplicas: 4, CurrentRevision: revOldOnly, UpdateRevision: revNewNew},
		},
		{
			name: "Members whose overrides give them different revisions roll out at one revision made of both, whatever their order.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m2", stsReport(3, 1, 1, revOld, revOld)), report(t, "m1", stsReport(3, 1, 1, revNew, revNew))}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 3, Replicas: 2, ReadyReplicas: 2, CurrentReplicas: 2, UpdatedReplicas: 2,
				AvailableReplicas: 2, CurrentRevision: revOldNew, UpdateRevision: revOldNew},
		},
		{
			name: "A member that has not reported holds observedGeneration back and the rollout is not over.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", stsReport(3, 2, 2, revNew, revNew)), report(t, "m2", nil)}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 2, ReadyReplicas: 2, CurrentReplicas: 2, UpdatedReplicas: 2,
				AvailableReplicas: 2, UpdateRevision: revNewOnly},
		},
		{
			name:     "A member whose controller has not observed its latest generation has not rolled out, and currentRevision empties rather than equal updateRevision.",
			recorded: revNewNew,
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				behind := stsReport(3, 2, 2, revNew, revNew)
				behind.ObservedGeneration = 4
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", stsReport(3, 2, 2, revNew, revNew)), report(t, "m2", behind)}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 4, ReadyReplicas: 4, CurrentReplicas: 4, UpdatedReplicas: 4,
				AvailableReplicas: 4, UpdateRevision: revNewNew},
		},
		{
			name:     "A member still running what an older template generation rendered has not rolled out.",
			recorded: revOldOnly,
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", stsReport(3, 2, 2, revNew, revNew)), report(t, "m2", stsReport(2, 2, 2, revNew, revNew))}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 2, Replicas: 4, ReadyReplicas: 4, CurrentReplicas: 4, UpdatedReplicas: 4,
				AvailableReplicas: 4, CurrentRevision: revOldOnly, UpdateRevision: revNewNew},
		},
		{
			name: "A member that reports no revision yet has not rolled out.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", stsReport(3, 2, 2, revNew, revNew)), report(t, "m2", stsReport(3, 0, 0, "", ""))}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 3, Replicas: 2, ReadyReplicas: 2, CurrentReplicas: 2, UpdatedReplicas: 2,
				AvailableReplicas: 2, UpdateRevision: revNoneNew},
		},
		{
			name: "Members' conditions are not aggregated.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				r := stsReport(3, 1, 1, revOld, revOld)
				r.Conditions = []appsv1.StatefulSetCondition{failing}
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", r)}
			},
			want: appsv1.StatefulSetStatus{ObservedGeneration: 3, Replicas: 1, ReadyReplicas: 1, CurrentReplicas: 1, UpdatedReplicas: 1,
				AvailableReplicas: 1, CurrentRevision: revOldOnly, UpdateRevision: revOldOnly},
		},
		{
			name:     "A template without member clusters keeps its observedGeneration and has not rolled out.",
			recorded: revOldOnly,
			items:    func(*testing.T) []workv1alpha2.AggregatedStatusItem { return nil },
			want:     appsv1.StatefulSetStatus{ObservedGeneration: 2, CurrentRevision: revOldOnly, UpdateRevision: revNoMember},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tmpl := object(t, "apps/v1", "StatefulSet", templateStatefulSet(tc.recorded))
			got := aggregateAs[appsv1.StatefulSetStatus](t, tmpl, tc.items(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealthOfStatefulSet(t *testing.T) {
	t.Parallel()
	// sts is a member StatefulSet of generation 2 wanting replicas, with a
	// rolling update partition when partition is set.
	sts := func(replicas, partition *int32, status appsv1.StatefulSetStatus) *appsv1.StatefulSet {
		s := &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: replicas}}
		if partition != nil {
			s.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.RollingUpdateStatefulSetStrategyType,
				RollingUpdate: &appsv1.RollingUpdateStatefulSetStrategy{Partition: partition}}
		}
		s.Generation = 2
		s.Status = status
		return s
	}
	cases := []struct {
		name string
		sts  *appsv1.StatefulSet
		want workv1alpha2.ResourceHealth
	}{
		{
			name: "A StatefulSet whose every pod is updated and available is healthy.",
			sts:  sts(ptr[int32](3), nil, appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 3, AvailableReplicas: 3}),
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A StatefulSet whose controller has not observed the latest generation is unhealthy.",
			sts:  sts(ptr[int32](3), nil, appsv1.StatefulSetStatus{ObservedGeneration: 1, UpdatedReplicas: 3, AvailableReplicas: 3}),
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A StatefulSet with fewer updated pods than wanted is unhealthy.",
			sts:  sts(ptr[int32](3), nil, appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 2, AvailableReplicas: 3}),
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A StatefulSet with fewer available pods than wanted is unhealthy, even when the updated ones are available.",
			sts:  sts(ptr[int32](3), ptr[int32](2), appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 1, AvailableReplicas: 2}),
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A partitioned StatefulSet is healthy once the pods at or above the partition are updated and every pod is available.",
			sts:  sts(ptr[int32](3), ptr[int32](2), appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 1, AvailableReplicas: 3}),
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A StatefulSet without spec.replicas wants one pod.",
			sts:  sts(nil, nil, appsv1.StatefulSetStatus{ObservedGeneration: 2, UpdatedReplicas: 1, AvailableReplicas: 1}),
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A StatefulSet without spec.replicas and no updated pod is unhealthy.",
			sts:  sts(nil, nil, appsv1.StatefulSetStatus{ObservedGeneration: 2}),
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A StatefulSet scaled to zero is healthy once observed.",
			sts:  sts(ptr[int32](0), nil, appsv1.StatefulSetStatus{ObservedGeneration: 2}),
			want: workv1alpha2.ResourceHealthy,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Health(object(t, "apps/v1", "StatefulSet", tc.sts)); got != tc.want {
				t.Errorf("Health = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReflectStatusOfStatefulSet(t *testing.T) {
	t.Parallel()
	cond := appsv1.StatefulSetCondition{Type: "Example", Status: corev1.ConditionTrue, Reason: "Because", LastTransitionTime: aggregatedAt}
	cases := []struct {
		name    string
		obj     func(t *testing.T) *unstructured.Unstructured
		want    StatefulSetStatus
		dropped []string
	}{
		{
			name: "A StatefulSet records its counters, generations, template generation, revisions and conditions, and nothing else of its status.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				s := &appsv1.StatefulSet{Status: appsv1.StatefulSetStatus{
					ObservedGeneration: 6, Replicas: 4, ReadyReplicas: 3, CurrentReplicas: 2, UpdatedReplicas: 2, AvailableReplicas: 3,
					CurrentRevision: revOld, UpdateRevision: revNew, CollisionCount: ptr[int32](1), Conditions: []appsv1.StatefulSetCondition{cond},
				}}
				s.Generation = 7
				s.Annotations = map[string]string{workv1alpha1.ResourceTemplateGenerationAnnotation: "4"}
				return object(t, "apps/v1", "StatefulSet", s)
			},
			want: StatefulSetStatus{Replicas: 4, ReadyReplicas: 3, CurrentReplicas: 2, UpdatedReplicas: 2, AvailableReplicas: 3,
				ObservedGeneration: 6, Generation: 7, ResourceTemplateGeneration: 4, CurrentRevision: revOld, UpdateRevision: revNew,
				Conditions: []appsv1.StatefulSetCondition{cond}},
			dropped: []string{"collisionCount"},
		},
		{
			name: "A StatefulSet without status yet records its generation only.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				s := &appsv1.StatefulSet{}
				s.Generation = 1
				u := object(t, "apps/v1", "StatefulSet", s)
				delete(u.Object, "status")
				return u
			},
			want: StatefulSetStatus{Generation: 1},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, fields := reflectAs[StatefulSetStatus](t, tc.obj(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
			for _, f := range tc.dropped {
				if _, ok := fields[f]; ok {
					t.Errorf("status carries %s, which mco does not collect", f)
				}
			}
		})
	}
}
