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
	"github.com/mco-org/mco/pkg/clustervalues"
)

// ValidateOverridePolicy checks an OverridePolicy. Its resource selectors may
// only name the policy's own namespace.
func ValidateOverridePolicy(policy *policyv1alpha1.OverridePolicy) field.ErrorList {
	allErrs := validateObjectMeta(&policy.ObjectMeta, true)
	allErrs = append(allErrs, validateClusterValuesAnnotation(policy.Annotations)...)
	return append(allErrs, validateOverrideSpec(&policy.Spec, policy.Namespace, clustervalues.Enabled(policy.Annotations), field.NewPath("spec"))...)
}

// ValidateClusterOverridePolicy checks a ClusterOverridePolicy.
func ValidateClusterOverridePolicy(policy *policyv1alpha1.ClusterOverridePolicy) field.ErrorList {
	allErrs := validateObjectMeta(&policy.ObjectMeta, false)
	allErrs = append(allErrs, validateClusterValuesAnnotation(policy.Annotations)...)
	return append(allErrs, validateOverrideSpec(&policy.Spec, "", clustervalues.Enabled(policy.Annotations), field.NewPath("spec"))...)
}

// validateClusterValuesAnnotation allows mco's cluster-values annotation
// only as "true" or "false".
func validateClusterValuesAnnotation(annotations map[string]string) field.ErrorList {
	v, ok := annotations[clustervalues.Annotation]
	if !ok || v == "true" || v == "false" {
		return nil
	}
	return field.ErrorList{field.NotSupported(field.NewPath("metadata", "annotations").Key(clustervalues.Annotation), v, []string{"true", "false"})}
}

// validateOverrideSpec checks the spec shared by both override kinds. The
// deprecated single-rule form (targetCluster and overriders at the top) may
// not be mixed with overrideRules; either form is checked the same way.
// With clusterValues, string values may hold cluster placeholders, and
// every one must be known.
func validateOverrideSpec(spec *policyv1alpha1.OverrideSpec, namespace string, clusterValues bool, fldPath *field.Path) field.ErrorList {
	// No selectors means every resource, so the list may be empty.
	allErrs := validateResourceSelectors(spec.ResourceSelectors, namespace, fldPath.Child("resourceSelectors"))

	targetPath, overridersPath := fldPath.Child("targetCluster"), fldPath.Child("overriders")
	if len(spec.OverrideRules) > 0 {
		if spec.TargetCluster != nil {
			allErrs = append(allErrs, field.Forbidden(targetPath, "may not be set together with overrideRules"))
		}
		if !isEmptyOverriders(&spec.Overriders) {
			allErrs = append(allErrs, field.Forbidden(overridersPath, "may not be set together with overrideRules"))
		}
	}
	if spec.TargetCluster != nil {
		allErrs = append(allErrs, validateClusterAffinity(spec.TargetCluster, targetPath)...)
	}
	allErrs = append(allErrs, validateOverriders(&spec.Overriders, clusterValues, overridersPath)...)

	for i := range spec.OverrideRules {
		rule := &spec.OverrideRules[i]
		p := fldPath.Child("overrideRules").Index(i)
		if rule.TargetCluster != nil {
			allErrs = append(allErrs, validateClusterAffinity(rule.TargetCluster, p.Child("targetCluster"))...)
		}
		allErrs = append(allErrs, validateOverriders(&rule.Overriders, clusterValues, p.Child("overriders"))...)
	}
	return allErrs
}

func isEmptyOverriders(o *policyv1alpha1.Overriders) bool {
	return len(o.Plaintext) == 0 && len(o.ImageOverrider) == 0 && len(o.CommandOverrider) == 0 &&
		len(o.ArgsOverrider) == 0 && len(o.LabelsOverrider) == 0 && len(o.AnnotationsOverrider) == 0 &&
		len(o.FieldOverrider) == 0
}
