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

// Package validation checks PropagationPolicy, ClusterPropagationPolicy,
// OverridePolicy, ClusterOverridePolicy and ClusterTaintPolicy objects
// before they are stored.
// It expects objects that have already been defaulted; fields that defaulting
// always fills in are accepted when empty.
package validation

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// validateObjectMeta checks the standard metadata; policy names are DNS-1123
// subdomains.
func validateObjectMeta(meta *metav1.ObjectMeta, namespaced bool) field.ErrorList {
	return apivalidation.ValidateObjectMeta(meta, namespaced, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
}

// validateResourceSelectors checks each selector. policyNamespace is the
// namespace of a namespaced policy, which may only select its own namespace;
// it is empty for cluster-wide policies.
func validateResourceSelectors(selectors []policyv1alpha1.ResourceSelector, policyNamespace string, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range selectors {
		selector := &selectors[i]
		p := fldPath.Index(i)
		if selector.APIVersion == "" {
			allErrs = append(allErrs, field.Required(p.Child("apiVersion"), "the API version of the resources to select is needed"))
		}
		if selector.Kind == "" {
			allErrs = append(allErrs, field.Required(p.Child("kind"), "the kind of the resources to select is needed"))
		}
		if policyNamespace != "" && selector.Namespace != "" && selector.Namespace != policyNamespace {
			allErrs = append(allErrs, field.Invalid(p.Child("namespace"), selector.Namespace,
				"a namespaced policy can only select resources of its own namespace "+policyNamespace))
		}
		allErrs = append(allErrs, validateLabelSelector(selector.LabelSelector, p.Child("labelSelector"))...)
	}
	return allErrs
}

func validateLabelSelector(selector *metav1.LabelSelector, fldPath *field.Path) field.ErrorList {
	return metav1validation.ValidateLabelSelector(selector, metav1validation.LabelSelectorValidationOptions{}, fldPath)
}

// validateQualifiedName requires a non-empty label-key style name
// ("[prefix/]name").
func validateQualifiedName(value string, fldPath *field.Path) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(fldPath, "")}
	}
	return metav1validation.ValidateLabelName(value, fldPath)
}

// validateJSONPointer checks a JSON pointer (RFC 6901). When allowRoot is
// false the pointer may not be empty, i.e. it may not address the whole
// document.
func validateJSONPointer(pointer string, allowRoot bool, fldPath *field.Path) field.ErrorList {
	if pointer == "" {
		if allowRoot {
			return nil
		}
		return field.ErrorList{field.Required(fldPath, "a JSON pointer such as /spec/replicas is needed")}
	}
	if pointer[0] != '/' {
		return field.ErrorList{field.Invalid(fldPath, pointer, "a JSON pointer must start with '/'")}
	}
	return nil
}

// validateEnum accepts value when it is one of allowed, or when it is empty
// and emptyAllowed is set. An empty value that is not allowed is Required; any
// other value is NotSupported.
func validateEnum[T ~string](value T, emptyAllowed bool, allowed []T, fldPath *field.Path) field.ErrorList {
	if value == "" {
		if emptyAllowed {
			return nil
		}
		return field.ErrorList{field.Required(fldPath, "")}
	}
	for _, candidate := range allowed {
		if value == candidate {
			return nil
		}
	}
	return field.ErrorList{field.NotSupported(fldPath, value, allowed)}
}

// ValidateResourceSelectors checks the resource selectors of a policy of
// another group that selects templates as PropagationPolicies do (a
// RolloutPolicy); policyNamespace is empty for a cluster-wide policy.
func ValidateResourceSelectors(selectors []policyv1alpha1.ResourceSelector, policyNamespace string, fldPath *field.Path) field.ErrorList {
	return validateResourceSelectors(selectors, policyNamespace, fldPath)
}
