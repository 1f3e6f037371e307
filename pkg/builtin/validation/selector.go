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
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/intstr"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateSelector checks a workload's label selector at specPath.selector:
// it must be set (unless optional), select something, and select the pods
// of the template, whose labels are at specPath.template.metadata.labels.
func validateSelector(selector *metav1.LabelSelector, templateLabels map[string]string, optional bool, specPath *field.Path) field.ErrorList {
	selPath := specPath.Child("selector")
	if selector == nil {
		if optional {
			return nil
		}
		return field.ErrorList{field.Required(selPath, "")}
	}
	errs := metav1validation.ValidateLabelSelector(selector, metav1validation.LabelSelectorValidationOptions{}, selPath)
	if len(selector.MatchLabels)+len(selector.MatchExpressions) == 0 {
		return append(errs, field.Invalid(selPath, selector, "empty selector is invalid: it would select every pod"))
	}
	if len(errs) > 0 {
		return errs
	}
	sel, err := metav1.LabelSelectorAsSelector(selector)
	if err != nil {
		return field.ErrorList{field.Invalid(selPath, selector, err.Error())}
	}
	if !sel.Matches(labels.Set(templateLabels)) {
		errs = append(errs, field.Invalid(specPath.Child("template", "metadata", "labels"), templateLabels,
			"`selector` does not match template `labels`"))
	}
	return errs
}

// validateIntOrPercent checks an optional count given as a non-negative
// integer or as a percentage such as "25%".
func validateIntOrPercent(v *intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if v.Type == intstr.String {
		if len(utilvalidation.IsValidPercent(v.StrVal)) > 0 {
			return field.ErrorList{field.Invalid(fldPath, v.StrVal, "must be an integer or a percentage (e.g. '25%')")}
		}
		return nil
	}
	return validateNonNegative(int64(v.IntVal), fldPath)
}

// intOrPercentValue is the number in v, percent sign dropped; nil and
// malformed values count as 0.
func intOrPercentValue(v *intstr.IntOrString) int {
	if v == nil {
		return 0
	}
	if v.Type == intstr.Int {
		return int(v.IntVal)
	}
	n, err := strconv.Atoi(strings.TrimSuffix(v.StrVal, "%"))
	if err != nil {
		return 0
	}
	return n
}

// validateAtMost100Percent checks that a percentage does not exceed 100%.
func validateAtMost100Percent(v *intstr.IntOrString, fldPath *field.Path) field.ErrorList {
	if v == nil || v.Type != intstr.String || intOrPercentValue(v) <= 100 {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, v.StrVal, "must not be greater than 100%")}
}
