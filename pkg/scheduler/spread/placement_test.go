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

package spread_test

import (
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/spread"
)

func TestForPlacement(t *testing.T) {
	t.Parallel()
	constraints := []policyv1alpha1.SpreadConstraint{byField(cluster, 1, 2)}
	strategy := func(kind policyv1alpha1.ReplicaSchedulingType, pref policyv1alpha1.ReplicaDivisionPreference,
		weights *policyv1alpha1.ClusterPreferences) *policyv1alpha1.Placement {
		return &policyv1alpha1.Placement{SpreadConstraints: constraints, ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{
			ReplicaSchedulingType: kind, ReplicaDivisionPreference: pref, WeightPreference: weights,
		}}
	}
	static := &policyv1alpha1.ClusterPreferences{StaticWeightList: []policyv1alpha1.StaticClusterWeight{{Weight: 1}}}
	dynamic := &policyv1alpha1.ClusterPreferences{DynamicWeight: policyv1alpha1.DynamicWeightByAvailableReplicas}
	tests := []struct {
		name            string
		placement       *policyv1alpha1.Placement
		wantConstraints bool
		wantDivided     bool
	}{
		{name: "A missing placement has nothing to spread.", placement: nil},
		{name: "Without replica scheduling the constraints apply and capacity does not matter.",
			placement: &policyv1alpha1.Placement{SpreadConstraints: constraints}, wantConstraints: true},
		{name: "Duplicated scheduling applies the constraints without capacity.",
			placement: strategy(policyv1alpha1.ReplicaSchedulingTypeDuplicated, "", nil), wantConstraints: true},
		{name: "Aggregated division applies the constraints and needs capacity.",
			placement:       strategy(policyv1alpha1.ReplicaSchedulingTypeDivided, policyv1alpha1.ReplicaDivisionPreferenceAggregated, nil),
			wantConstraints: true, wantDivided: true},
		{name: "Dynamic weights apply the constraints and need capacity.",
			placement:       strategy(policyv1alpha1.ReplicaSchedulingTypeDivided, policyv1alpha1.ReplicaDivisionPreferenceWeighted, dynamic),
			wantConstraints: true, wantDivided: true},
		{name: "Weighted division without weights is a static split that ignores the constraints.",
			placement:   strategy(policyv1alpha1.ReplicaSchedulingTypeDivided, policyv1alpha1.ReplicaDivisionPreferenceWeighted, nil),
			wantDivided: true},
		{name: "A static weight list ignores the constraints.",
			placement:   strategy(policyv1alpha1.ReplicaSchedulingTypeDivided, policyv1alpha1.ReplicaDivisionPreferenceWeighted, static),
			wantDivided: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, divided := spread.ForPlacement(tt.placement)
			if (len(got) > 0) != tt.wantConstraints || divided != tt.wantDivided {
				t.Errorf("ForPlacement() = %d constraints, divided %v; want constraints %v, divided %v",
					len(got), divided, tt.wantConstraints, tt.wantDivided)
			}
		})
	}
}
