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

// ValidatePlacement checks a placement as found in a propagation policy or a
// resource binding: cluster affinity (single or grouped), cluster
// tolerations, spread constraints, replica scheduling and workload affinity.
func ValidatePlacement(placement *policyv1alpha1.Placement, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if placement.ClusterAffinity != nil && len(placement.ClusterAffinities) > 0 {
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("clusterAffinities"), "may not be set together with clusterAffinity"))
	}
	if placement.ClusterAffinity != nil {
		allErrs = append(allErrs, validateClusterAffinity(placement.ClusterAffinity, fldPath.Child("clusterAffinity"))...)
	}
	allErrs = append(allErrs, validateClusterAffinityTerms(placement.ClusterAffinities, placement.ReplicaScheduling, fldPath.Child("clusterAffinities"))...)
	allErrs = append(allErrs, validateClusterTolerations(placement.ClusterTolerations, fldPath.Child("clusterTolerations"))...)
	allErrs = append(allErrs, validateSpreadConstraints(placement.SpreadConstraints, fldPath.Child("spreadConstraints"))...)
	allErrs = append(allErrs, validateReplicaScheduling(placement.ReplicaScheduling, fldPath.Child("replicaScheduling"))...)
	allErrs = append(allErrs, validateWorkloadAffinity(placement.WorkloadAffinity, fldPath.Child("workloadAffinity"))...)
	return allErrs
}

// validateClusterAffinityTerms checks each named cluster group and its
// overflow groups. Group names are unique across the list; overflow names are
// unique within their term and differ from the term's own name.
func validateClusterAffinityTerms(terms []policyv1alpha1.ClusterAffinityTerm, replicas *policyv1alpha1.ReplicaSchedulingStrategy, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	names := make(map[string]bool, len(terms))
	for i := range terms {
		term := &terms[i]
		p := fldPath.Index(i)
		namePath := p.Child("affinityName")
		allErrs = append(allErrs, validateAffinityName(term.AffinityName, namePath)...)
		if term.AffinityName != "" && names[term.AffinityName] {
			allErrs = append(allErrs, field.Duplicate(namePath, term.AffinityName))
		}
		names[term.AffinityName] = true
		// The affinity fields are inlined, so their paths hang off the term.
		allErrs = append(allErrs, validateClusterAffinity(&term.ClusterAffinity, p)...)
		allErrs = append(allErrs, validateOverflowAffinities(term, replicas, p)...)
	}
	return allErrs
}

// validateOverflowAffinities checks the overflow groups of one term. They
// extend the term's own group, so that group must have a filter, and they
// only make sense when replicas are divided by available capacity.
func validateOverflowAffinities(term *policyv1alpha1.ClusterAffinityTerm, replicas *policyv1alpha1.ReplicaSchedulingStrategy, fldPath *field.Path) field.ErrorList {
	if len(term.OverflowAffinities) == 0 {
		return nil
	}
	var allErrs field.ErrorList
	overflowPath := fldPath.Child("overflowAffinities")
	if isEmptyClusterAffinity(&term.ClusterAffinity) {
		allErrs = append(allErrs, field.Required(fldPath,
			"a term with overflowAffinities needs its own cluster filter (labelSelector, fieldSelector, clusterNames or exclude)"))
	}
	if !supportsOverflow(replicas) {
		allErrs = append(allErrs, field.Forbidden(overflowPath,
			"only allowed with Divided replica scheduling that is Aggregated or uses a dynamic weight"))
	}
	names := map[string]bool{term.AffinityName: true}
	for j := range term.OverflowAffinities {
		overflow := &term.OverflowAffinities[j]
		p := overflowPath.Index(j)
		namePath := p.Child("affinityName")
		allErrs = append(allErrs, validateAffinityName(overflow.AffinityName, namePath)...)
		if overflow.AffinityName != "" && names[overflow.AffinityName] {
			allErrs = append(allErrs, field.Duplicate(namePath, overflow.AffinityName))
		}
		names[overflow.AffinityName] = true
		allErrs = append(allErrs, validateClusterAffinity(&overflow.ClusterAffinity, p)...)
	}
	return allErrs
}

// supportsOverflow tells whether replicas are divided by what clusters can
// hold: Divided with Aggregated, or Divided and Weighted by a dynamic weight.
// Empty type and preference count as their defaults, Divided and Weighted.
func supportsOverflow(strategy *policyv1alpha1.ReplicaSchedulingStrategy) bool {
	if strategy == nil {
		return false
	}
	if strategy.ReplicaSchedulingType != "" && strategy.ReplicaSchedulingType != policyv1alpha1.ReplicaSchedulingTypeDivided {
		return false
	}
	switch strategy.ReplicaDivisionPreference {
	case policyv1alpha1.ReplicaDivisionPreferenceAggregated:
		return true
	case "", policyv1alpha1.ReplicaDivisionPreferenceWeighted:
		return strategy.WeightPreference != nil && strategy.WeightPreference.DynamicWeight != ""
	default:
		return false
	}
}

// validateWorkloadAffinity checks the group label keys; a workload cannot be
// both attracted to and repelled by the same group.
func validateWorkloadAffinity(affinity *policyv1alpha1.WorkloadAffinity, fldPath *field.Path) field.ErrorList {
	if affinity == nil {
		return nil
	}
	var allErrs field.ErrorList
	if affinity.Affinity != nil {
		allErrs = append(allErrs, validateQualifiedName(affinity.Affinity.GroupByLabelKey, fldPath.Child("affinity", "groupByLabelKey"))...)
	}
	if affinity.AntiAffinity != nil {
		keyPath := fldPath.Child("antiAffinity", "groupByLabelKey")
		key := affinity.AntiAffinity.GroupByLabelKey
		allErrs = append(allErrs, validateQualifiedName(key, keyPath)...)
		if affinity.Affinity != nil && key != "" && key == affinity.Affinity.GroupByLabelKey {
			allErrs = append(allErrs, field.Invalid(keyPath, key, "must differ from affinity.groupByLabelKey"))
		}
	}
	return allErrs
}
