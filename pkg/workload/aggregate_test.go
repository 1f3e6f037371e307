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
	"time"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

var (
	aggregatedAt = metav1.NewTime(time.Date(2025, 3, 2, 10, 0, 0, 0, time.UTC))
	earlier      = metav1.NewTime(time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC))
	muchEarlier  = metav1.NewTime(time.Date(2025, 2, 1, 8, 0, 0, 0, time.UTC))
)

// Messages of the aggregated conditions.
const (
	msgAvailable   = "Deployment has minimum availability in every member cluster."
	msgRolledOut   = "The rollout has completed in every member cluster."
	reasonRolling  = "ReplicaSetUpdated"
	reasonDeadline = "ProgressDeadlineExceeded"
	reasonDone     = "NewReplicaSetAvailable"
	reasonMinimum  = "MinimumReplicasAvailable"
	reasonNoMin    = "MinimumReplicasUnavailable"
)

func deployCondition(t appsv1.DeploymentConditionType, s corev1.ConditionStatus, reason string) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{Type: t, Status: s, Reason: reason}
}

var (
	memberAvailable    = deployCondition(appsv1.DeploymentAvailable, corev1.ConditionTrue, reasonMinimum)
	memberNotAvailable = deployCondition(appsv1.DeploymentAvailable, corev1.ConditionFalse, reasonNoMin)
	memberRolledOut    = deployCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonDone)
	memberRolling      = deployCondition(appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonRolling)
	memberDeadline     = deployCondition(appsv1.DeploymentProgressing, corev1.ConditionFalse, reasonDeadline)
)

// reported is what a member reports of a Deployment rendered from template
// generation templateGen, whose own controller has observed it.
func reported(templateGen int64, replicas, available int32, conditions ...appsv1.DeploymentCondition) *DeploymentStatus {
	return &DeploymentStatus{
		Replicas: replicas, UpdatedReplicas: replicas, ReadyReplicas: available, AvailableReplicas: available,
		UnavailableReplicas: replicas - available, Generation: 5, ObservedGeneration: 5,
		ResourceTemplateGeneration: templateGen, Conditions: conditions,
	}
}

// templateDeployment is the Deployment on mco, at generation 3, whose
// status was last aggregated for generation 2.
func templateDeployment(conditions ...appsv1.DeploymentCondition) *appsv1.Deployment {
	d := deployment(ptr[int32](3), podSpec())
	d.Generation = 3
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Conditions: conditions}
	return d
}

// aggregated is an aggregated condition set at aggregatedAt.
func aggregated(t appsv1.DeploymentConditionType, s corev1.ConditionStatus, reason, message string) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{Type: t, Status: s, Reason: reason, Message: message,
		LastUpdateTime: aggregatedAt, LastTransitionTime: aggregatedAt}
}

var (
	allAvailable = aggregated(appsv1.DeploymentAvailable, corev1.ConditionTrue, reasonMinimum, msgAvailable)
	allRolledOut = aggregated(appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonDone, msgRolledOut)
)

func notAvailableIn(clusters string) appsv1.DeploymentCondition {
	return aggregated(appsv1.DeploymentAvailable, corev1.ConditionFalse, reasonNoMin,
		"Deployment does not have minimum availability in cluster(s) "+clusters+".")
}

func rollingIn(clusters string) appsv1.DeploymentCondition {
	return aggregated(appsv1.DeploymentProgressing, corev1.ConditionTrue, reasonRolling,
		"The rollout is progressing in cluster(s) "+clusters+".")
}

func deadlineIn(clusters string) appsv1.DeploymentCondition {
	return aggregated(appsv1.DeploymentProgressing, corev1.ConditionFalse, reasonDeadline,
		"The rollout exceeded its progress deadline in cluster(s) "+clusters+".")
}

func TestAggregateStatusOfDeployment(t *testing.T) {
	t.Parallel()
	done := []appsv1.DeploymentCondition{memberAvailable, memberRolledOut}
	cases := []struct {
		name     string
		template *appsv1.Deployment
		items    func(t *testing.T) []workv1alpha2.AggregatedStatusItem
		want     appsv1.DeploymentStatus
	}{
		{
			name:     "Counters add up over members and observedGeneration advances when every member has caught up.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", reported(3, 2, 2, done...)), report(t, "m2", reported(3, 2, 1, done...))}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 4, UpdatedReplicas: 4, ReadyReplicas: 3, AvailableReplicas: 3,
				UnavailableReplicas: 1, Conditions: []appsv1.DeploymentCondition{allAvailable, allRolledOut}},
		},
		{
			name:     "observedGeneration stays when a member still runs what was rendered from an older template generation.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", reported(3, 1, 1, done...)), report(t, "m2", reported(2, 1, 1, done...))}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2,
				Conditions: []appsv1.DeploymentCondition{allAvailable, allRolledOut}},
		},
		{
			name:     "observedGeneration stays when a member's controller has not observed the member's latest generation.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				behind := reported(3, 1, 1, done...)
				behind.ObservedGeneration = 4
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", reported(3, 1, 1, done...)), report(t, "m2", behind)}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2,
				Conditions: []appsv1.DeploymentCondition{allAvailable, allRolledOut}},
		},
		{
			name:     "A member that has not reported holds observedGeneration back and is named in both conditions.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", reported(3, 2, 2, done...)), report(t, "m2", nil)}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2,
				Conditions: []appsv1.DeploymentCondition{notAvailableIn("m2"), rollingIn("m2")}},
		},
		{
			name:     "A member whose reported status is empty has not reported.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				empty := workv1alpha2.AggregatedStatusItem{ClusterName: "m2", Status: &runtime.RawExtension{}}
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", reported(3, 2, 2, done...)), empty}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2,
				Conditions: []appsv1.DeploymentCondition{notAvailableIn("m2"), rollingIn("m2")}},
		},
		{
			name:     "Members that are not available, or do not say, hold Available back and are named in cluster order.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m3", reported(3, 1, 0, memberRolledOut)),
					report(t, "m2", reported(3, 1, 1, done...)),
					report(t, "m1", reported(3, 1, 0, memberNotAvailable, memberRolledOut)),
				}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 1, AvailableReplicas: 1,
				UnavailableReplicas: 2, Conditions: []appsv1.DeploymentCondition{notAvailableIn("m1, m3"), allRolledOut}},
		},
		{
			name:     "Members that have not reported are named after those that reported they are not available.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", nil), report(t, "m2", reported(3, 1, 0, memberNotAvailable, memberRolledOut))}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 1, UpdatedReplicas: 1, UnavailableReplicas: 1,
				Conditions: []appsv1.DeploymentCondition{notAvailableIn("m2, m1"), rollingIn("m1")}},
		},
		{
			name:     "Members still rolling out, or not saying, make Progressing name them.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m1", reported(3, 1, 1, memberAvailable, memberRolling)),
					report(t, "m2", reported(3, 1, 1, memberAvailable)),
					report(t, "m3", reported(3, 1, 1, done...)),
				}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 3, UpdatedReplicas: 3, ReadyReplicas: 3, AvailableReplicas: 3,
				Conditions: []appsv1.DeploymentCondition{allAvailable, rollingIn("m1, m2")}},
		},
		{
			name:     "A member past its progress deadline makes Progressing False naming it, over members still rolling out.",
			template: templateDeployment(),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m1", reported(3, 1, 1, memberAvailable, memberRolling)),
					report(t, "m2", reported(3, 1, 1, memberAvailable, memberDeadline)),
					report(t, "m3", nil),
				}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2,
				Conditions: []appsv1.DeploymentCondition{notAvailableIn("m3"), deadlineIn("m2")}},
		},
		{
			name: "Unchanged conditions keep the times the template already records.",
			template: templateDeployment(
				appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: reasonMinimum,
					Message: msgAvailable, LastUpdateTime: earlier, LastTransitionTime: muchEarlier},
				appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: reasonRolling,
					Message: "The rollout is progressing in cluster(s) m1.", LastUpdateTime: earlier, LastTransitionTime: muchEarlier},
			),
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", reported(3, 1, 1, done...))}
			},
			want: appsv1.DeploymentStatus{ObservedGeneration: 3, Replicas: 1, UpdatedReplicas: 1, ReadyReplicas: 1, AvailableReplicas: 1,
				Conditions: []appsv1.DeploymentCondition{
					{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: reasonMinimum, Message: msgAvailable,
						LastUpdateTime: earlier, LastTransitionTime: muchEarlier},
					{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: reasonDone, Message: msgRolledOut,
						LastUpdateTime: aggregatedAt, LastTransitionTime: muchEarlier},
				}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tmpl := object(t, "apps/v1", "Deployment", tc.template)
			out, ok, err := AggregateStatus(tmpl, tc.items(t), aggregatedAt)
			if err != nil || !ok {
				t.Fatalf("AggregateStatus = ok %v, err %v; want ok", ok, err)
			}
			var got appsv1.DeploymentStatus
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(out, &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAggregateStatusWithoutMembers(t *testing.T) {
	t.Parallel()
	aggregate := func(t *testing.T) appsv1.DeploymentStatus {
		t.Helper()
		out, ok, err := AggregateStatus(object(t, "apps/v1", "Deployment", templateDeployment()), nil, aggregatedAt)
		if err != nil || !ok {
			t.Fatalf("AggregateStatus = ok %v, err %v; want ok", ok, err)
		}
		var got appsv1.DeploymentStatus
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(out, &got); err != nil {
			t.Fatal(err)
		}
		return got
	}
	t.Run("A template placed in no member cluster keeps its observedGeneration and has no replicas.", func(t *testing.T) {
		t.Parallel()
		got := aggregate(t)
		if got.ObservedGeneration != 2 || got.Replicas != 0 || got.AvailableReplicas != 0 {
			t.Errorf("status = %+v, want observedGeneration 2 and no replicas", got)
		}
	})
	t.Run("A template placed in no member cluster is not available.", func(t *testing.T) {
		t.Parallel()
		got := aggregate(t)
		for _, c := range got.Conditions {
			if c.Type == appsv1.DeploymentAvailable && c.Status == corev1.ConditionTrue {
				t.Errorf("Available = %+v, want not True while no cluster runs a replica", c)
			}
		}
	})
}

func TestAggregateStatusRefuses(t *testing.T) {
	t.Parallel()
	garbage := []workv1alpha2.AggregatedStatusItem{{ClusterName: "m1", Status: &runtime.RawExtension{Raw: []byte("{not json")}}}
	cases := []struct {
		name    string
		obj     func(t *testing.T) *unstructured.Unstructured
		items   []workv1alpha2.AggregatedStatusItem
		wantErr bool
	}{
		{
			name: "A Secret's status is not aggregated, and its members' reports are not read.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "Secret", &corev1.Secret{})
			},
			items: garbage,
		},
		{
			name: "A ConfigMap's status is not aggregated.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "ConfigMap", &corev1.ConfigMap{})
			},
		},
		{
			name: "A Deployment of another API group is not aggregated.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "example.com/v1", "Deployment", deployment(ptr[int32](1), podSpec()))
			},
			items: garbage,
		},
		{
			name: "A member status that is not JSON is an error.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", templateDeployment())
			},
			items: garbage, wantErr: true,
		},
		{
			name: "A template that cannot be decoded is an error.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				u := object(t, "apps/v1", "Deployment", templateDeployment())
				u.Object["spec"] = map[string]any{"replicas": "three"}
				return u
			},
			wantErr: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			status, ok, err := AggregateStatus(tc.obj(t), tc.items, aggregatedAt)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if ok || status != nil {
				t.Errorf("AggregateStatus = %v, ok %v; want no status and ok false", status, ok)
			}
		})
	}
}

// TestAggregatedConditionTimes checks, on the Available condition, that an
// aggregation carries over the times the template records as a controller
// would: the transition time while the status stays, the update time while
// nothing changes.
func TestAggregatedConditionTimes(t *testing.T) {
	t.Parallel()
	// One member, available and rolled out: Available comes out True with
	// reason MinimumReplicasAvailable and message msgAvailable.
	items := func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
		return []workv1alpha2.AggregatedStatusItem{report(t, "m1", reported(3, 1, 1, memberAvailable, memberRolledOut))}
	}
	recorded := func(status corev1.ConditionStatus, reason, message string) appsv1.DeploymentCondition {
		return appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: status, Reason: reason, Message: message,
			LastUpdateTime: earlier, LastTransitionTime: muchEarlier}
	}
	progressing := recorded(corev1.ConditionTrue, reasonDone, msgRolledOut)
	progressing.Type = appsv1.DeploymentProgressing
	cases := []struct {
		name                   string
		recorded               []appsv1.DeploymentCondition
		wantUpdate, wantChange metav1.Time
	}{
		{
			name:       "A condition the template does not record yet is new at both times.",
			wantUpdate: aggregatedAt, wantChange: aggregatedAt,
		},
		{
			name:       "Only a recorded condition of the same type counts.",
			recorded:   []appsv1.DeploymentCondition{progressing},
			wantUpdate: aggregatedAt, wantChange: aggregatedAt,
		},
		{
			name:       "An unchanged condition keeps both times.",
			recorded:   []appsv1.DeploymentCondition{recorded(corev1.ConditionTrue, reasonMinimum, msgAvailable)},
			wantUpdate: earlier, wantChange: muchEarlier,
		},
		{
			name:       "A new message under the same status keeps the transition time and is updated now.",
			recorded:   []appsv1.DeploymentCondition{recorded(corev1.ConditionTrue, reasonMinimum, "something else")},
			wantUpdate: aggregatedAt, wantChange: muchEarlier,
		},
		{
			name:       "A new reason under the same status keeps the transition time and is updated now.",
			recorded:   []appsv1.DeploymentCondition{recorded(corev1.ConditionTrue, "Other", msgAvailable)},
			wantUpdate: aggregatedAt, wantChange: muchEarlier,
		},
		{
			name:       "A new status is a transition now.",
			recorded:   []appsv1.DeploymentCondition{recorded(corev1.ConditionFalse, reasonMinimum, msgAvailable)},
			wantUpdate: aggregatedAt, wantChange: aggregatedAt,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			out, ok, err := AggregateStatus(object(t, "apps/v1", "Deployment", templateDeployment(tc.recorded...)), items(t), aggregatedAt)
			if err != nil || !ok {
				t.Fatalf("AggregateStatus = ok %v, err %v; want ok", ok, err)
			}
			var got appsv1.DeploymentStatus
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(out, &got); err != nil {
				t.Fatal(err)
			}
			want := allAvailable
			want.LastUpdateTime, want.LastTransitionTime = tc.wantUpdate, tc.wantChange
			var available *appsv1.DeploymentCondition
			for i := range got.Conditions {
				if got.Conditions[i].Type == appsv1.DeploymentAvailable {
					available = &got.Conditions[i]
				}
			}
			if diff := cmp.Diff(&want, available); diff != "" {
				t.Errorf("Available differs (-want +got):\n%s", diff)
			}
		})
	}
}
