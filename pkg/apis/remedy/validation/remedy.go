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

// Package validation checks remedy.karmada.io objects before they are
// stored.
package validation

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
)

var operators = []string{string(remedyv1alpha1.ClusterConditionEqual), string(remedyv1alpha1.ClusterConditionNotEqual)}

// ValidateRemedy checks a Remedy as Karmada's schema does: every
// condition requirement names a condition type, an operator (Equal or
// NotEqual) and a status; cluster names are names.
func ValidateRemedy(r *remedyv1alpha1.Remedy) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&r.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	if a := r.Spec.ClusterAffinity; a != nil {
		for i, name := range a.ClusterNames {
			for _, msg := range apivalidation.NameIsDNSSubdomain(name, false) {
				allErrs = append(allErrs, field.Invalid(spec.Child("clusterAffinity", "clusterNames").Index(i), name, msg))
			}
		}
	}
	for i, m := range r.Spec.DecisionMatches {
		c := m.ClusterConditionMatch
		if c == nil {
			continue
		}
		p := spec.Child("decisionMatches").Index(i).Child("clusterConditionMatch")
		if c.ConditionType == "" {
			allErrs = append(allErrs, field.Required(p.Child("conditionType"), ""))
		}
		switch c.Operator {
		case remedyv1alpha1.ClusterConditionEqual, remedyv1alpha1.ClusterConditionNotEqual:
		case "":
			allErrs = append(allErrs, field.Required(p.Child("operator"), "Equal or NotEqual"))
		default:
			allErrs = append(allErrs, field.NotSupported(p.Child("operator"), c.Operator, operators))
		}
		if c.ConditionStatus == "" {
			allErrs = append(allErrs, field.Required(p.Child("conditionStatus"), ""))
		}
	}
	return allErrs
}

// ValidateRemedyUpdate checks a changed Remedy.
func ValidateRemedyUpdate(r, old *remedyv1alpha1.Remedy) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMetaUpdate(&r.ObjectMeta, &old.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, ValidateRemedy(r)...)
}
