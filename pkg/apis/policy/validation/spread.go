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

var supportedSpreadFields = []policyv1alpha1.SpreadFieldValue{
	policyv1alpha1.SpreadByFieldCluster, policyv1alpha1.SpreadByFieldRegion,
	policyv1alpha1.SpreadByFieldZone, policyv1alpha1.SpreadByFieldProvider,
}

// validateSpreadConstraints checks each constraint and the list as a whole:
// a field may be spread by only once, and spreading by region, zone or
// provider also needs a cluster constraint, which says how many clusters to
// pick inside the chosen groups.
func validateSpreadConstraints(constraints []policyv1alpha1.SpreadConstraint, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := make(map[policyv1alpha1.SpreadFieldValue]bool, len(constraints))
	needsCluster := false
	for i := range constraints {
		constraint := &constraints[i]
		p := fldPath.Index(i)
		allErrs = append(allErrs, validateSpreadConstraint(constraint, p)...)
		spreadField := constraint.SpreadByField
		if spreadField == "" {
			continue
		}
		if seen[spreadField] {
			allErrs = append(allErrs, field.Duplicate(p.Child("spreadByField"), spreadField))
		}
		seen[spreadField] = true
		if spreadField != policyv1alpha1.SpreadByFieldCluster && isSupportedSpreadField(spreadField) {
			needsCluster = true
		}
	}
	if needsCluster && !seen[policyv1alpha1.SpreadByFieldCluster] {
		allErrs = append(allErrs, field.Required(fldPath,
			"a constraint with spreadByField cluster is needed when spreading by region, zone or provider"))
	}
	return allErrs
}

func validateSpreadConstraint(constraint *policyv1alpha1.SpreadConstraint, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	fieldPath, labelPath := fldPath.Child("spreadByField"), fldPath.Child("spreadByLabel")
	switch {
	case constraint.SpreadByField == "" && constraint.SpreadByLabel == "":
		allErrs = append(allErrs, field.Required(fieldPath, "either spreadByField or spreadByLabel is needed"))
	case constraint.SpreadByField != "" && constraint.SpreadByLabel != "":
		allErrs = append(allErrs, field.Forbidden(labelPath, "may not be set together with spreadByField"))
	}
	if constraint.SpreadByField != "" {
		allErrs = append(allErrs, validateEnum(constraint.SpreadByField, false, supportedSpreadFields, fieldPath)...)
	}
	if constraint.SpreadByLabel != "" {
		allErrs = append(allErrs, validateQualifiedName(constraint.SpreadByLabel, labelPath)...)
	}
	if constraint.MinGroups < 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("minGroups"), constraint.MinGroups, "may not be negative"))
	}
	maxPath := fldPath.Child("maxGroups")
	switch {
	case constraint.MaxGroups < 0:
		allErrs = append(allErrs, field.Invalid(maxPath, constraint.MaxGroups, "may not be negative"))
	case constraint.MaxGroups > 0 && constraint.MaxGroups < constraint.MinGroups:
		allErrs = append(allErrs, field.Invalid(maxPath, constraint.MaxGroups, "may not be less than minGroups"))
	}
	return allErrs
}

func isSupportedSpreadField(value policyv1alpha1.SpreadFieldValue) bool {
	for _, candidate := range supportedSpreadFields {
		if value == candidate {
			return true
		}
	}
	return false
}
