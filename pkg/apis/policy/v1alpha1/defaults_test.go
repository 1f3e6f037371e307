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

package v1alpha1

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func ptrTo[T any](v T) *T { return &v }

// newScheme returns a scheme with this package's kinds and defaulters.
func newScheme(t *testing.T) *runtime.Scheme {
	t.Helper()
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatalf("AddToScheme: %v", err)
	}
	return scheme
}

// defaultedSpec is what an otherwise empty spec becomes, with the given selectors.
func defaultedSpec(selectors ...ResourceSelector) PropagationSpec {
	return PropagationSpec{
		ResourceSelectors:  selectors,
		Priority:           ptrTo[int32](0),
		Preemption:         PreemptNever,
		ConflictResolution: ConflictAbort,
		SchedulerName:      DefaultSchedulerName,
	}
}

func deployment(namespace string) ResourceSelector {
	return ResourceSelector{APIVersion: "apps/v1", Kind: "Deployment", Namespace: namespace, Name: "nginx"}
}

func namespaced(name string) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: name, Namespace: "default"}
}

func TestDefaultingPropagationPolicy(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   PropagationSpec
		want PropagationSpec
	}{
		{
			name: "An empty spec gets priority 0, preemption Never, conflict resolution Abort and the default scheduler, and its selector gets the policy namespace.",
			in:   PropagationSpec{ResourceSelectors: []ResourceSelector{deployment("")}},
			want: defaultedSpec(deployment("default")),
		},
		{
			name: "Values the user set are kept.",
			in: PropagationSpec{
				ResourceSelectors:  []ResourceSelector{deployment("default")},
				Priority:           ptrTo[int32](7),
				Preemption:         PreemptAlways,
				ConflictResolution: ConflictOverwrite,
				SchedulerName:      "my-scheduler",
			},
			want: PropagationSpec{
				ResourceSelectors:  []ResourceSelector{deployment("default")},
				Priority:           ptrTo[int32](7),
				Preemption:         PreemptAlways,
				ConflictResolution: ConflictOverwrite,
				SchedulerName:      "my-scheduler",
			},
		},
		{
			name: "Selecting a ServiceImport turns on propagateDeps.",
			in: PropagationSpec{ResourceSelectors: []ResourceSelector{
				{APIVersion: "multicluster.x-k8s.io/v1alpha1", Kind: "ServiceImport", Name: "web"},
			}},
			want: func() PropagationSpec {
				spec := defaultedSpec(ResourceSelector{APIVersion: "multicluster.x-k8s.io/v1alpha1", Kind: "ServiceImport", Name: "web", Namespace: "default"})
				spec.PropagateDeps = true
				return spec
			}(),
		},
		{
			name: "Spread constraints without a field or label spread by cluster, and every constraint picks at least one group.",
			in: PropagationSpec{Placement: Placement{SpreadConstraints: []SpreadConstraint{
				{MaxGroups: 3},
				{SpreadByLabel: "rack"},
				{SpreadByField: SpreadByFieldRegion, MinGroups: 2, MaxGroups: 2},
			}}},
			want: func() PropagationSpec {
				spec := defaultedSpec()
				spec.Placement.SpreadConstraints = []SpreadConstraint{
					{SpreadByField: SpreadByFieldCluster, MinGroups: 1, MaxGroups: 3},
					{SpreadByLabel: "rack", MinGroups: 1},
					{SpreadByField: SpreadByFieldRegion, MinGroups: 2, MaxGroups: 2},
				}
				return spec
			}(),
		},
		{
			name: "An empty replica scheduling strategy becomes Divided and Weighted.",
			in:   PropagationSpec{Placement: Placement{ReplicaScheduling: &ReplicaSchedulingStrategy{}}},
			want: func() PropagationSpec {
				spec := defaultedSpec()
				spec.Placement.ReplicaScheduling = &ReplicaSchedulingStrategy{
					ReplicaSchedulingType:     ReplicaSchedulingTypeDivided,
					ReplicaDivisionPreference: ReplicaDivisionPreferenceWeighted,
				}
				return spec
			}(),
		},
		{
			name: "Duplicated replicas get no division preference.",
			in: PropagationSpec{
				Placement: Placement{ReplicaScheduling: &ReplicaSchedulingStrategy{ReplicaSchedulingType: ReplicaSchedulingTypeDuplicated}},
			},
			want: func() PropagationSpec {
				spec := defaultedSpec()
				spec.Placement.ReplicaScheduling = &ReplicaSchedulingStrategy{ReplicaSchedulingType: ReplicaSchedulingTypeDuplicated}
				return spec
			}(),
		},
		{
			name: "A Divided strategy with an Aggregated division is kept.",
			in: PropagationSpec{Placement: Placement{ReplicaScheduling: &ReplicaSchedulingStrategy{
				ReplicaSchedulingType: ReplicaSchedulingTypeDivided, ReplicaDivisionPreference: ReplicaDivisionPreferenceAggregated,
			}}},
			want: func() PropagationSpec {
				spec := defaultedSpec()
				spec.Placement.ReplicaScheduling = &ReplicaSchedulingStrategy{
					ReplicaSchedulingType: ReplicaSchedulingTypeDivided, ReplicaDivisionPreference: ReplicaDivisionPreferenceAggregated,
				}
				return spec
			}(),
		},
		{
			name: "Application failover gets a 300s toleration, graceful purge and a 600s grace period; cluster failover gets graceful purge.",
			in: PropagationSpec{Failover: &FailoverBehavior{
				Application: &ApplicationFailoverBehavior{},
				Cluster:     &ClusterFailoverBehavior{},
			}},
			want: func() PropagationSpec {
				spec := defaultedSpec()
				spec.Failover = &FailoverBehavior{
					Application: &ApplicationFailoverBehavior{
						DecisionConditions: DecisionConditions{TolerationSeconds: ptrTo[int32](300)},
						PurgeMode:          PurgeModeGracefully,
						GracePeriodSeconds: ptrTo[int32](600),
					},
					Cluster: &ClusterFailoverBehavior{PurgeMode: PurgeModeGracefully},
				}
				return spec
			}(),
		},
		{
			name: "A Directly purge gets no grace period, and a user's grace period is kept as is.",
			in: PropagationSpec{Failover: &FailoverBehavior{Application: &ApplicationFailoverBehavior{
				PurgeMode: PurgeModeDirectly,
			}, Cluster: &ClusterFailoverBehavior{PurgeMode: PurgeModeDirectly}}},
			want: func() PropagationSpec {
				spec := defaultedSpec()
				spec.Failover = &FailoverBehavior{Application: &ApplicationFailoverBehavior{
					DecisionConditions: DecisionConditions{TolerationSeconds: ptrTo[int32](300)},
					PurgeMode:          PurgeModeDirectly,
				}, Cluster: &ClusterFailoverBehavior{PurgeMode: PurgeModeDirectly}}
				return spec
			}(),
		},
	}
	scheme := newScheme(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			policy := &PropagationPolicy{ObjectMeta: namespaced("nginx"), Spec: *tc.in.DeepCopy()}
			scheme.Default(policy)
			if !reflect.DeepEqual(policy.Spec, tc.want) {
				t.Errorf("defaulted spec differs\n got: %+v\nwant: %+v", policy.Spec, tc.want)
			}
			expectIdempotent(t, scheme, policy)
		})
	}
}

// expectIdempotent checks that defaulting an already defaulted object
// changes nothing.
func expectIdempotent(t *testing.T, scheme *runtime.Scheme, defaulted runtime.Object) {
	t.Helper()
	again := defaulted.DeepCopyObject()
	scheme.Default(again)
	if !reflect.DeepEqual(again, defaulted) {
		t.Errorf("defaulting twice differs from defaulting once\n once: %+v\ntwice: %+v", defaulted, again)
	}
}
