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
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// ValidateFederatedResourceQuota checks a FederatedResourceQuota: an
// overall limit; resource names that are qualified names and quantities
// that are not negative; static assignments naming each cluster once,
// limiting only resources the overall limit names, and adding up to no
// more than it.
func ValidateFederatedResourceQuota(q *policyv1alpha1.FederatedResourceQuota) field.ErrorList {
	allErrs := validateObjectMeta(&q.ObjectMeta, true)
	spec := field.NewPath("spec")
	if q.Spec.Overall == nil {
		allErrs = append(allErrs, field.Required(spec.Child("overall"), "the overall limit is needed"))
	}
	allErrs = append(allErrs, validateResourceList(corev1.ResourceList(q.Spec.Overall), spec.Child("overall"))...)
	sum := corev1.ResourceList{}
	seen := map[string]bool{}
	for i, a := range q.Spec.StaticAssignments {
		p := spec.Child("staticAssignments").Index(i)
		switch {
		case a.ClusterName == "":
			allErrs = append(allErrs, field.Required(p.Child("clusterName"), ""))
		case seen[a.ClusterName]:
			allErrs = append(allErrs, field.Duplicate(p.Child("clusterName"), a.ClusterName))
		}
		seen[a.ClusterName] = true
		if a.Hard == nil {
			allErrs = append(allErrs, field.Required(p.Child("hard"), ""))
		}
		allErrs = append(allErrs, validateResourceList(corev1.ResourceList(a.Hard), p.Child("hard"))...)
		for _, name := range sortedNames(corev1.ResourceList(a.Hard)) {
			hard := a.Hard[name]
			if _, ok := q.Spec.Overall[name]; !ok {
				allErrs = append(allErrs, field.Invalid(p.Child("hard").Key(string(name)), hard.String(),
					"spec.overall does not limit this resource"))
				continue
			}
			total := sum[name]
			total.Add(hard)
			sum[name] = total
		}
	}
	for _, name := range sortedNames(sum) {
		if total, overall := sum[name], q.Spec.Overall[name]; total.Cmp(overall) > 0 {
			allErrs = append(allErrs, field.Invalid(spec.Child("staticAssignments"), total.String(),
				"the assignments of "+string(name)+" add up to more than spec.overall's "+overall.String()))
		}
	}
	return allErrs
}

// validateResourceList checks resource names and quantities.
func validateResourceList(list corev1.ResourceList, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for _, name := range sortedNames(list) {
		p := fldPath.Key(string(name))
		for _, msg := range validation.IsQualifiedName(string(name)) {
			allErrs = append(allErrs, field.Invalid(p, string(name), msg))
		}
		if q := list[name]; q.Sign() < 0 {
			allErrs = append(allErrs, field.Invalid(p, q.String(), "must not be negative"))
		}
	}
	return allErrs
}

func sortedNames(list corev1.ResourceList) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(list))
	for n := range list {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}
