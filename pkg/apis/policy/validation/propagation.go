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
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

var (
	supportedPreemptions         = []policyv1alpha1.PreemptionBehavior{policyv1alpha1.PreemptAlways, policyv1alpha1.PreemptNever}
	supportedConflictResolutions = []policyv1alpha1.ConflictResolution{policyv1alpha1.ConflictAbort, policyv1alpha1.ConflictOverwrite}
	supportedActivations         = []policyv1alpha1.ActivationPreference{policyv1alpha1.LazyActivation}
	supportedPriorityClassSource = []policyv1alpha1.PriorityClassSource{policyv1alpha1.KubePriorityClass}
)

// ValidatePropagationPolicy checks a PropagationPolicy. Its resource
// selectors may only name the policy's own namespace.
func ValidatePropagationPolicy(policy *policyv1alpha1.PropagationPolicy) field.ErrorList {
	allErrs := validateObjectMeta(&policy.ObjectMeta, true)
	return append(allErrs, validatePropagationSpec(&policy.Spec, policy.Namespace, field.NewPath("spec"))...)
}

// ValidateClusterPropagationPolicy checks a ClusterPropagationPolicy.
func ValidateClusterPropagationPolicy(policy *policyv1alpha1.ClusterPropagationPolicy) field.ErrorList {
	allErrs := validateObjectMeta(&policy.ObjectMeta, false)
	return append(allErrs, validatePropagationSpec(&policy.Spec, "", field.NewPath("spec"))...)
}

// ValidatePropagationPolicyUpdate checks a PropagationPolicy on update: every
// create rule on the new object, and a schedulerName that stays as it was,
// as in Karmada. The generic registry checks the metadata update itself.
func ValidatePropagationPolicyUpdate(policy, old *policyv1alpha1.PropagationPolicy) field.ErrorList {
	allErrs := ValidatePropagationPolicy(policy)
	return append(allErrs, validatePropagationSpecUpdate(&policy.Spec, &old.Spec, field.NewPath("spec"))...)
}

// ValidateClusterPropagationPolicyUpdate checks a ClusterPropagationPolicy on
// update, as ValidatePropagationPolicyUpdate does.
func ValidateClusterPropagationPolicyUpdate(policy, old *policyv1alpha1.ClusterPropagationPolicy) field.ErrorList {
	allErrs := ValidateClusterPropagationPolicy(policy)
	return append(allErrs, validatePropagationSpecUpdate(&policy.Spec, &old.Spec, field.NewPath("spec"))...)
}

// validatePropagationSpecUpdate refuses to hand the policy's resources over
// to another scheduler: schedulerName is immutable.
func validatePropagationSpecUpdate(spec, old *policyv1alpha1.PropagationSpec, fldPath *field.Path) field.ErrorList {
	return apivalidation.ValidateImmutableField(spec.SchedulerName, old.SchedulerName, fldPath.Child("schedulerName"))
}

// validatePropagationSpec checks the spec shared by both propagation kinds.
// namespace is the policy's namespace, empty for the cluster-wide kind.
func validatePropagationSpec(spec *policyv1alpha1.PropagationSpec, namespace string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	selectorsPath := fldPath.Child("resourceSelectors")
	if len(spec.ResourceSelectors) == 0 {
		allErrs = append(allErrs, field.Required(selectorsPath, "at least one resource selector is needed"))
	}
	allErrs = append(allErrs, validateResourceSelectors(spec.ResourceSelectors, namespace, selectorsPath)...)
	if spec.Preemption == policyv1alpha1.PreemptAlways {
		// A preempting policy that matches by kind or labels alone could
		// take over far more resources than its author meant.
		for i := range spec.ResourceSelectors {
			if spec.ResourceSelectors[i].Name == "" {
				allErrs = append(allErrs, field.Required(selectorsPath.Index(i).Child("name"),
					"every resource selector needs a name when preemption is Always"))
			}
		}
	}

	allErrs = append(allErrs, validateEnum(spec.Preemption, true, supportedPreemptions, fldPath.Child("preemption"))...)
	allErrs = append(allErrs, validateEnum(spec.ConflictResolution, true, supportedConflictResolutions, fldPath.Child("conflictResolution"))...)
	allErrs = append(allErrs, validateEnum(spec.ActivationPreference, true, supportedActivations, fldPath.Child("activationPreference"))...)

	allErrs = append(allErrs, ValidatePlacement(&spec.Placement, fldPath.Child("placement"))...)

	if spec.Failover != nil && spec.Failover.Application != nil && !spec.PropagateDeps {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("propagateDeps"), spec.PropagateDeps,
			"must be true when failover.application is set, so that dependencies move with the application"))
	}
	allErrs = append(allErrs, validateFailover(spec.Failover, fldPath.Child("failover"))...)
	allErrs = append(allErrs, validateSuspension(spec.Suspension, fldPath.Child("suspension"))...)
	allErrs = append(allErrs, validateSchedulePriority(spec.SchedulePriority, fldPath.Child("schedulePriority"))...)
	for i, name := range spec.DependentOverrides {
		for _, msg := range apivalidation.NameIsDNSSubdomain(name, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("dependentOverrides").Index(i), name, msg))
		}
	}
	return allErrs
}

// validateSuspension rejects suspending dispatch everywhere and on a list of
// clusters at the same time.
func validateSuspension(suspension *policyv1alpha1.Suspension, fldPath *field.Path) field.ErrorList {
	if suspension == nil || suspension.Dispatching == nil || !*suspension.Dispatching {
		return nil
	}
	if suspension.DispatchingOnClusters != nil && len(suspension.DispatchingOnClusters.ClusterNames) > 0 {
		return field.ErrorList{field.Forbidden(fldPath.Child("dispatchingOnClusters"),
			"may not list clusters when dispatching is already suspended everywhere")}
	}
	return nil
}

func validateSchedulePriority(priority *policyv1alpha1.SchedulePriority, fldPath *field.Path) field.ErrorList {
	if priority == nil {
		return nil
	}
	allErrs := validateEnum(priority.PriorityClassSource, false, supportedPriorityClassSource, fldPath.Child("priorityClassSource"))
	if name := priority.PriorityClassName; name != "" {
		for _, msg := range apivalidation.NameIsDNSSubdomain(name, false) {
			allErrs = append(allErrs, field.Invalid(fldPath.Child("priorityClassName"), name, msg))
		}
	}
	return allErrs
}
