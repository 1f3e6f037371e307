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

package spread

import policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"

// ForPlacement returns what Select should be given for a placement, as
// Karmada decides it: a static-weight split (Divided, Weighted, with no
// weight preference or a static list and no dynamic weight) ignores spread
// constraints altogether; capacity matters only for Divided scheduling.
func ForPlacement(placement *policyv1alpha1.Placement) (constraints []policyv1alpha1.SpreadConstraint, divided bool) {
	if placement == nil {
		return nil, false
	}
	strategy := placement.ReplicaScheduling
	if strategy == nil {
		return placement.SpreadConstraints, false
	}
	divided = strategy.ReplicaSchedulingType != policyv1alpha1.ReplicaSchedulingTypeDuplicated
	if divided && strategy.ReplicaDivisionPreference == policyv1alpha1.ReplicaDivisionPreferenceWeighted {
		weights := strategy.WeightPreference
		if weights == nil || len(weights.StaticWeightList) > 0 && weights.DynamicWeight == "" {
			return nil, true
		}
	}
	return placement.SpreadConstraints, divided
}
