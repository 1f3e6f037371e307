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
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/clustervalues"
)

var (
	// patchOperators are the operators of plaintext, image, label,
	// annotation and field overriders.
	patchOperators = []policyv1alpha1.OverriderOperator{
		policyv1alpha1.OverriderOpAdd, policyv1alpha1.OverriderOpRemove, policyv1alpha1.OverriderOpReplace,
	}
	// listOperators are the operators of command and args overriders.
	listOperators   = []policyv1alpha1.OverriderOperator{policyv1alpha1.OverriderOpAdd, policyv1alpha1.OverriderOpRemove}
	imageComponents = []policyv1alpha1.ImageComponent{policyv1alpha1.Registry, policyv1alpha1.Repository, policyv1alpha1.Tag}
)

// validateOverriders checks every overrider of one rule. With
// clusterValues its string values may hold cluster placeholders: each
// must be known, and label values are checked with a stand-in for them.
func validateOverriders(o *policyv1alpha1.Overriders, clusterValues bool, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if clusterValues {
		allErrs = append(allErrs, clustervalues.Validate(o, fldPath)...)
	}
	for i, plaintext := range o.Plaintext {
		// Unlike a field overrider's edits, a plaintext value is not paired
		// with its operator, as in Karmada: remove ignores a value, and add or
		// replace without one fails when the override is applied.
		p := fldPath.Child("plaintext").Index(i)
		allErrs = append(allErrs, validateJSONPointer(plaintext.Path, false, p.Child("path"))...)
		allErrs = append(allErrs, validateEnum(plaintext.Operator, false, patchOperators, p.Child("operator"))...)
	}
	for i, image := range o.ImageOverrider {
		p := fldPath.Child("imageOverrider").Index(i)
		if image.Predicate != nil {
			// An empty path is a valid JSON pointer (the whole object), so it
			// is accepted, as in Karmada; applying it fails, as there is no
			// image string there.
			allErrs = append(allErrs, validateJSONPointer(image.Predicate.Path, true, p.Child("predicate", "path"))...)
		}
		allErrs = append(allErrs, validateEnum(image.Component, false, imageComponents, p.Child("component"))...)
		allErrs = append(allErrs, validateEnum(image.Operator, false, patchOperators, p.Child("operator"))...)
	}
	allErrs = append(allErrs, validateCommandArgs(o.CommandOverrider, fldPath.Child("commandOverrider"))...)
	allErrs = append(allErrs, validateCommandArgs(o.ArgsOverrider, fldPath.Child("argsOverrider"))...)
	for i, labels := range o.LabelsOverrider {
		p := fldPath.Child("labelsOverrider").Index(i)
		allErrs = append(allErrs, validateEnum(labels.Operator, false, patchOperators, p.Child("operator"))...)
		values := labels.Value
		if clusterValues {
			values = make(map[string]string, len(labels.Value))
			for k, v := range labels.Value {
				values[k] = clustervalues.StandIn(v)
			}
		}
		allErrs = append(allErrs, metav1validation.ValidateLabels(values, p.Child("value"))...)
	}
	for i, annotations := range o.AnnotationsOverrider {
		p := fldPath.Child("annotationsOverrider").Index(i)
		allErrs = append(allErrs, validateEnum(annotations.Operator, false, patchOperators, p.Child("operator"))...)
		allErrs = append(allErrs, apivalidation.ValidateAnnotations(annotations.Value, p.Child("value"))...)
	}
	for i := range o.FieldOverrider {
		allErrs = append(allErrs, validateFieldOverrider(&o.FieldOverrider[i], fldPath.Child("fieldOverrider").Index(i))...)
	}
	return allErrs
}

func validateCommandArgs(overriders []policyv1alpha1.CommandArgsOverrider, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, overrider := range overriders {
		p := fldPath.Index(i)
		if overrider.ContainerName == "" {
			allErrs = append(allErrs, field.Required(p.Child("containerName"), "the container to change is needed"))
		}
		allErrs = append(allErrs, validateEnum(overrider.Operator, false, listOperators, p.Child("operator"))...)
	}
	return allErrs
}

// validateFieldOverrider checks a field overrider: the string field it edits,
// and exactly one non-empty list of edits, JSON or YAML. A sub path may be
// empty, which addresses the whole embedded document.
func validateFieldOverrider(overrider *policyv1alpha1.FieldOverrider, fldPath *field.Path) field.ErrorList {
	allErrs := validateJSONPointer(overrider.FieldPath, false, fldPath.Child("fieldPath"))
	switch {
	case len(overrider.JSON) == 0 && len(overrider.YAML) == 0:
		allErrs = append(allErrs, field.Required(fldPath, "either json or yaml edits are needed"))
	case len(overrider.JSON) > 0 && len(overrider.YAML) > 0:
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("yaml"), "may not be set together with json"))
	}
	for i, patch := range overrider.JSON {
		p := fldPath.Child("json").Index(i)
		allErrs = append(allErrs, validateJSONPointer(patch.SubPath, true, p.Child("subPath"))...)
		allErrs = append(allErrs, validatePatch(patch.Operator, patch.Value, p)...)
	}
	for i, patch := range overrider.YAML {
		p := fldPath.Child("yaml").Index(i)
		allErrs = append(allErrs, validateJSONPointer(patch.SubPath, true, p.Child("subPath"))...)
		allErrs = append(allErrs, validatePatch(patch.Operator, patch.Value, p)...)
	}
	return allErrs
}

// validatePatch checks the operator of a field overrider's edit and that a
// value is given for add and replace, and left out for remove.
func validatePatch(operator policyv1alpha1.OverriderOperator, value policyv1alpha1.JSON, fldPath *field.Path) field.ErrorList {
	allErrs := validateEnum(operator, false, patchOperators, fldPath.Child("operator"))
	hasValue := len(value.Raw) > 0
	switch {
	case (operator == policyv1alpha1.OverriderOpAdd || operator == policyv1alpha1.OverriderOpReplace) && !hasValue:
		allErrs = append(allErrs, field.Required(fldPath.Child("value"), "add and replace need a value"))
	case operator == policyv1alpha1.OverriderOpRemove && hasValue:
		allErrs = append(allErrs, field.Forbidden(fldPath.Child("value"), "must be empty for remove"))
	}
	return allErrs
}
