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

package validation

import (
	"testing"

	corev1 "k8s.io/api/core/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func TestValidatePlacementReplicaScheduling(t *testing.T) {
	t.Parallel()
	const rs = pl + ".replicaScheduling"
	weighted := func(list ...policyv1alpha1.StaticClusterWeight) *policyv1alpha1.ReplicaSchedulingStrategy {
		return &policyv1alpha1.ReplicaSchedulingStrategy{
			ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
			ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceWeighted,
			WeightPreference:          &policyv1alpha1.ClusterPreferences{StaticWeightList: list},
		}
	}
	cases := []struct {
		name     string
		strategy *policyv1alpha1.ReplicaSchedulingStrategy
		want     []fieldErr
	}{
		{
			name:     "Duplicated replicas are valid.",
			strategy: &policyv1alpha1.ReplicaSchedulingStrategy{ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDuplicated},
		},
		{
			name:     "An empty strategy is accepted because defaulting fills it.",
			strategy: &policyv1alpha1.ReplicaSchedulingStrategy{},
		},
		{
			name:     "Dynamic weights by available replicas are valid.",
			strategy: dynamicDivided(),
		},
		{
			name: "Static weights with selecting filters are valid.",
			strategy: weighted(
				policyv1alpha1.StaticClusterWeight{TargetCluster: names("member1"), Weight: 1},
				policyv1alpha1.StaticClusterWeight{TargetCluster: policyv1alpha1.ClusterAffinity{ExcludeClusters: []string{"member1"}}, Weight: 2},
			),
		},
		{
			name: "Unknown scheduling type, division preference and dynamic weight are rejected.",
			strategy: &policyv1alpha1.ReplicaSchedulingStrategy{
				ReplicaSchedulingType:     "Split",
				ReplicaDivisionPreference: "Balanced",
				WeightPreference:          &policyv1alpha1.ClusterPreferences{DynamicWeight: "FreeMemory"},
			},
			want: []fieldErr{
				notSupported(rs + ".replicaSchedulingType"),
				notSupported(rs + ".replicaDivisionPreference"),
				notSupported(rs + ".weightPreference.dynamicWeight"),
			},
		},
		{
			name: "A static weight below 1 is rejected.",
			strategy: weighted(
				policyv1alpha1.StaticClusterWeight{TargetCluster: names("member1"), Weight: 0},
				policyv1alpha1.StaticClusterWeight{TargetCluster: names("member2"), Weight: -3},
			),
			want: []fieldErr{
				invalid(rs + ".weightPreference.staticWeightList[0].weight"),
				invalid(rs + ".weightPreference.staticWeightList[1].weight"),
			},
		},
		{
			name:     "A static weight with an empty target cluster, meaning every cluster, is valid.",
			strategy: weighted(policyv1alpha1.StaticClusterWeight{Weight: 1}),
		},
		{
			name: "A static weight's target cluster field selector is checked.",
			strategy: weighted(policyv1alpha1.StaticClusterWeight{Weight: 1, TargetCluster: policyv1alpha1.ClusterAffinity{
				FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
					fieldExpr("provider", corev1.NodeSelectorOpDoesNotExist),
				}},
			}}),
			want: []fieldErr{
				notSupported(rs + ".weightPreference.staticWeightList[0].targetCluster.fieldSelector.matchExpressions[0].operator"),
			},
		},
	}
	placementCases := make([]placementCase, 0, len(cases))
	for _, tc := range cases {
		placementCases = append(placementCases, placementCase{
			name: tc.name, placement: policyv1alpha1.Placement{ReplicaScheduling: tc.strategy}, want: tc.want,
		})
	}
	runPlacementCases(t, placementCases)
}
