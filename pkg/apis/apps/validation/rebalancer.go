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

// Package validation checks apps.karmada.io objects before they are stored.
package validation

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
)

// ValidateWorkloadRebalancer checks a WorkloadRebalancer: at least one
// workload, each with an apiVersion, kind and name (a namespace when
// given must be a valid one), none twice, and a TTL that is not negative.
func ValidateWorkloadRebalancer(r *appsv1alpha1.WorkloadRebalancer) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&r.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	if len(r.Spec.Workloads) == 0 {
		allErrs = append(allErrs, field.Required(spec.Child("workloads"), "at least one workload is needed"))
	}
	seen := map[appsv1alpha1.ObjectReference]bool{}
	for i, w := range r.Spec.Workloads {
		p := spec.Child("workloads").Index(i)
		allErrs = append(allErrs, validateReference(&w, p)...)
		if seen[w] {
			allErrs = append(allErrs, field.Duplicate(p, w))
		}
		seen[w] = true
	}
	if ttl := r.Spec.TTLSecondsAfterFinished; ttl != nil && *ttl < 0 {
		allErrs = append(allErrs, field.Invalid(spec.Child("ttlSecondsAfterFinished"), *ttl, "must not be negative"))
	}
	return allErrs
}

// ValidateWorkloadRebalancerUpdate checks an update: the new object must
// be valid; the list of workloads may change (the new ones are
// rebalanced in turn).
func ValidateWorkloadRebalancerUpdate(r, _ *appsv1alpha1.WorkloadRebalancer) field.ErrorList {
	return ValidateWorkloadRebalancer(r)
}

func validateReference(w *appsv1alpha1.ObjectReference, p *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	if w.APIVersion == "" {
		allErrs = append(allErrs, field.Required(p.Child("apiVersion"), ""))
	} else if _, err := schema.ParseGroupVersion(w.APIVersion); err != nil {
		allErrs = append(allErrs, field.Invalid(p.Child("apiVersion"), w.APIVersion, err.Error()))
	}
	if w.Kind == "" {
		allErrs = append(allErrs, field.Required(p.Child("kind"), ""))
	}
	if w.Name == "" {
		allErrs = append(allErrs, field.Required(p.Child("name"), ""))
	}
	if w.Namespace != "" {
		for _, msg := range apivalidation.ValidateNamespaceName(w.Namespace, false) {
			allErrs = append(allErrs, field.Invalid(p.Child("namespace"), w.Namespace, msg))
		}
	}
	return allErrs
}
