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
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// NoExecuteRefusedMessage is the detail of the error a NoExecute taint gets
// when mco-apiserver runs with --allow-no-execute-taint-policy=false.
const NoExecuteRefusedMessage = "the server refuses NoExecute taints in ClusterTaintPolicy (--allow-no-execute-taint-policy=false)"

var (
	supportedMatchOperators = []policyv1alpha1.MatchConditionOperator{policyv1alpha1.MatchConditionOpIn, policyv1alpha1.MatchConditionOpNotIn}
	supportedStatusValues   = []metav1.ConditionStatus{metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown}
	// supportedPolicyTaintEffects are the effects a Cluster accepts (see
	// the cluster validation): a policy could not put any other on one.
	// PreferNoSchedule means nothing for a cluster.
	supportedPolicyTaintEffects = []corev1.TaintEffect{corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute}
)

// TaintPolicyOptions are server settings that change what a
// ClusterTaintPolicy may hold.
type TaintPolicyOptions struct {
	// AllowNoExecute accepts NoExecute taints, which make the scheduler
	// move workloads off the tainted clusters.
	AllowNoExecute bool
}

// ValidateClusterTaintPolicy checks a ClusterTaintPolicy.
func ValidateClusterTaintPolicy(policy *policyv1alpha1.ClusterTaintPolicy, opts TaintPolicyOptions) field.ErrorList {
	allErrs := validateObjectMeta(&policy.ObjectMeta, false)
	return append(allErrs, validateTaintPolicySpec(&policy.Spec, opts, field.NewPath("spec"))...)
}

func validateTaintPolicySpec(spec *policyv1alpha1.ClusterTaintPolicySpec, opts TaintPolicyOptions, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if spec.TargetClusters != nil {
		allErrs = append(allErrs, validateClusterAffinity(spec.TargetClusters, fldPath.Child("targetClusters"))...)
	}
	allErrs = append(allErrs, validateMatchConditions(spec.AddOnConditions, fldPath.Child("addOnConditions"))...)
	allErrs = append(allErrs, validateMatchConditions(spec.RemoveOnConditions, fldPath.Child("removeOnConditions"))...)
	return append(allErrs, validatePolicyTaints(spec.Taints, opts, fldPath.Child("taints"))...)
}

// validateMatchConditions checks each condition test: a type, In or NotIn,
// and at least one of True, False and Unknown.
func validateMatchConditions(conditions []policyv1alpha1.MatchCondition, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range conditions {
		c := &conditions[i]
		p := fldPath.Index(i)
		if c.ConditionType == "" {
			allErrs = append(allErrs, field.Required(p.Child("conditionType"), "the type of a Cluster condition, e.g. Ready"))
		}
		allErrs = append(allErrs, validateEnum(c.Operator, false, supportedMatchOperators, p.Child("operator"))...)
		if len(c.StatusValues) == 0 {
			allErrs = append(allErrs, field.Required(p.Child("statusValues"), "at least one of True, False and Unknown"))
		}
		for j, v := range c.StatusValues {
			allErrs = append(allErrs, validateEnum(v, false, supportedStatusValues, p.Child("statusValues").Index(j))...)
		}
	}
	return allErrs
}

// validatePolicyTaints checks the taints as a Cluster would (label-key
// keys, label-value values, NoSchedule or NoExecute, unique by key and
// effect) and, unless allowed, refuses NoExecute.
func validatePolicyTaints(taints []policyv1alpha1.Taint, opts TaintPolicyOptions, fldPath *field.Path) field.ErrorList {
	if len(taints) == 0 {
		return field.ErrorList{field.Required(fldPath, "at least one taint")}
	}
	var allErrs field.ErrorList
	type keyEffect struct {
		key    string
		effect corev1.TaintEffect
	}
	seen := make(map[keyEffect]bool, len(taints))
	for i := range taints {
		taint := &taints[i]
		p := fldPath.Index(i)
		allErrs = append(allErrs, validateQualifiedName(taint.Key, p.Child("key"))...)
		for _, msg := range utilvalidation.IsValidLabelValue(taint.Value) {
			allErrs = append(allErrs, field.Invalid(p.Child("value"), taint.Value, msg))
		}
		allErrs = append(allErrs, validateEnum(taint.Effect, false, supportedPolicyTaintEffects, p.Child("effect"))...)
		if taint.Effect == corev1.TaintEffectNoExecute && !opts.AllowNoExecute {
			allErrs = append(allErrs, field.Forbidden(p.Child("effect"), NoExecuteRefusedMessage))
		}
		id := keyEffect{taint.Key, taint.Effect}
		if seen[id] {
			dup := field.Duplicate(p, *taint)
			dup.Detail = "taints must be unique by key and effect"
			allErrs = append(allErrs, dup)
		}
		seen[id] = true
	}
	return allErrs
}
