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
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	supportedTolerationOperators = []corev1.TolerationOperator{corev1.TolerationOpEqual, corev1.TolerationOpExists}
	supportedTolerationEffects   = []corev1.TaintEffect{
		corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute,
	}
)

// validateClusterTolerations checks tolerations of cluster taints. These are
// looser than pod tolerations: an empty key with the default (Equal)
// operator is allowed, so "effect: NoSchedule" alone tolerates every
// NoSchedule taint that has an empty value. The comparison operators Lt and
// Gt are refused, as they have no meaning for clusters.
func validateClusterTolerations(tolerations []corev1.Toleration, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range tolerations {
		toleration := &tolerations[i]
		p := fldPath.Index(i)
		if toleration.Key != "" {
			allErrs = append(allErrs, validateQualifiedName(toleration.Key, p.Child("key"))...)
		}
		allErrs = append(allErrs, validateEnum(toleration.Operator, true, supportedTolerationOperators, p.Child("operator"))...)
		if toleration.Operator == corev1.TolerationOpExists && toleration.Value != "" {
			allErrs = append(allErrs, field.Forbidden(p.Child("value"), "must be empty when operator is Exists"))
		}
		allErrs = append(allErrs, validateEnum(toleration.Effect, true, supportedTolerationEffects, p.Child("effect"))...)
		if toleration.TolerationSeconds != nil && toleration.Effect != corev1.TaintEffectNoExecute {
			allErrs = append(allErrs, field.Forbidden(p.Child("tolerationSeconds"), "only applies to the NoExecute effect"))
		}
	}
	return allErrs
}
