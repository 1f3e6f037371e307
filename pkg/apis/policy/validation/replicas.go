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
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

var (
	supportedSchedulingTypes = []policyv1alpha1.ReplicaSchedulingType{
		policyv1alpha1.ReplicaSchedulingTypeDuplicated, policyv1alpha1.ReplicaSchedulingTypeDivided,
	}
	supportedDivisionPreferences = []policyv1alpha1.ReplicaDivisionPreference{
		policyv1alpha1.ReplicaDivisionPreferenceAggregated, policyv1alpha1.ReplicaDivisionPreferenceWeighted,
	}
	supportedDynamicWeights = []policyv1alpha1.DynamicWeightFactor{policyv1alpha1.DynamicWeightByAvailableReplicas}
)

// validateReplicaScheduling checks the enums and the static weight list:
// every entry weighs at least 1. An empty targetCluster selects every
// cluster, as in Karmada.
func validateReplicaScheduling(strategy *policyv1alpha1.ReplicaSchedulingStrategy, fldPath *field.Path) field.ErrorList {
	if strategy == nil {
		return nil
	}
	allErrs := validateEnum(strategy.ReplicaSchedulingType, true, supportedSchedulingTypes, fldPath.Child("replicaSchedulingType"))
	allErrs = append(allErrs, validateEnum(strategy.ReplicaDivisionPreference, true, supportedDivisionPreferences, fldPath.Child("replicaDivisionPreference"))...)
	preference := strategy.WeightPreference
	if preference == nil {
		return allErrs
	}
	preferencePath := fldPath.Child("weightPreference")
	allErrs = append(allErrs, validateEnum(preference.DynamicWeight, true, supportedDynamicWeights, preferencePath.Child("dynamicWeight"))...)
	for i := range preference.StaticWeightList {
		entry := &preference.StaticWeightList[i]
		p := preferencePath.Child("staticWeightList").Index(i)
		if entry.Weight < 1 {
			allErrs = append(allErrs, field.Invalid(p.Child("weight"), entry.Weight, "must be at least 1"))
		}
		allErrs = append(allErrs, validateClusterAffinity(&entry.TargetCluster, p.Child("targetCluster"))...)
	}
	return allErrs
}
