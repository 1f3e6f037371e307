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
	"math"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// supportedTaintEffects are the effects the scheduler and the taint manager act on for clusters.
// PreferNoSchedule has no meaning for a cluster, so Karmada refuses it.
var supportedTaintEffects = []string{string(corev1.TaintEffectNoSchedule), string(corev1.TaintEffectNoExecute)}

// supportedModelResources are the resource names a resource model may grade clusters by.
var supportedModelResources = []string{
	string(corev1.ResourceCPU),
	string(corev1.ResourceMemory),
	string(corev1.ResourceStorage),
	string(corev1.ResourceEphemeralStorage),
}

// validateTaints checks each taint's key, value and effect, and that no two taints share both key
// and effect.
func validateTaints(taints []corev1.Taint, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	type keyEffect struct {
		key    string
		effect corev1.TaintEffect
	}
	seen := make(map[keyEffect]bool, len(taints))
	for i, taint := range taints {
		p := fldPath.Index(i)
		allErrs = append(allErrs, metav1validation.ValidateLabelName(taint.Key, p.Child("key"))...)
		for _, msg := range utilvalidation.IsValidLabelValue(taint.Value) {
			allErrs = append(allErrs, field.Invalid(p.Child("value"), taint.Value, msg))
		}
		switch taint.Effect {
		case "":
			allErrs = append(allErrs, field.Required(p.Child("effect"), ""))
		case corev1.TaintEffectNoSchedule, corev1.TaintEffectNoExecute:
		default:
			allErrs = append(allErrs, field.NotSupported(p.Child("effect"), taint.Effect, supportedTaintEffects))
		}
		id := keyEffect{taint.Key, taint.Effect}
		if seen[id] {
			dup := field.Duplicate(p, taint)
			dup.Detail = "taints must be unique by key and effect"
			allErrs = append(allErrs, dup)
			continue
		}
		seen[id] = true
	}
	return allErrs
}

// validateResourceModels enforces the shape the scheduler's estimator relies on: grades strictly
// increasing, every grade listing the same resources in the same order, each interval non-empty,
// the intervals of one resource touching from grade to grade, the lowest grade starting at zero
// and the highest one ending at math.MaxInt64. Defaulting sorts the grades and sets the two
// outer edges, so after defaulting only a user's real mistakes remain to be reported.
func validateResourceModels(models []clusterv1alpha1.ResourceModel, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	last := len(models) - 1
	for i, model := range models {
		p := fldPath.Index(i)
		var prev *clusterv1alpha1.ResourceModel
		if i > 0 {
			prev = &models[i-1]
			if model.Grade <= prev.Grade {
				allErrs = append(allErrs, field.Invalid(p.Child("grade"), model.Grade,
					"grades must be unique and listed in increasing order"))
			}
			if len(model.Ranges) != len(prev.Ranges) {
				allErrs = append(allErrs, field.Invalid(p.Child("ranges"), len(model.Ranges),
					"every grade must list the same resources as the grade before it"))
				prev = nil // the per-range comparison would only repeat this error
			}
		}
		for j, r := range model.Ranges {
			allErrs = append(allErrs, validateModelRange(r, prev, j, i == 0, i == last, p.Child("ranges").Index(j))...)
		}
	}
	return allErrs
}

// validateModelRange checks range j of one grade. prev is the grade before it, or nil when there
// is none or it cannot be compared.
func validateModelRange(r clusterv1alpha1.ResourceModelRange, prev *clusterv1alpha1.ResourceModel, j int,
	lowest, highest bool, p *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if !slices.Contains(supportedModelResources, string(r.Name)) {
		allErrs = append(allErrs, field.NotSupported(p.Child("name"), r.Name, supportedModelResources))
	}
	if r.Max.Cmp(r.Min) <= 0 {
		allErrs = append(allErrs, field.Invalid(p.Child("max"), r.Max.String(), "must be greater than min"))
	}
	if lowest && !r.Min.IsZero() {
		allErrs = append(allErrs, field.Invalid(p.Child("min"), r.Min.String(), "must be 0 in the lowest grade"))
	}
	if prev != nil {
		before := prev.Ranges[j]
		switch {
		case before.Name != r.Name:
			allErrs = append(allErrs, field.Invalid(p.Child("name"), r.Name,
				"must name the same resource as the same position in the grade before"))
		case before.Max.Cmp(r.Min) != 0:
			allErrs = append(allErrs, field.Invalid(p.Child("min"), r.Min.String(),
				"must equal the max of this resource in the grade before, so intervals touch without overlapping"))
		}
	}
	if highest && r.Max.Value() != math.MaxInt64 {
		allErrs = append(allErrs, field.Invalid(p.Child("max"), r.Max.String(),
			"must be 9223372036854775807 (the largest int64) in the highest grade"))
	}
	return allErrs
}
