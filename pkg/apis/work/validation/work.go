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
	"encoding/json"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

var supportedWorkHealth = []string{
	string(workv1alpha1.ResourceHealthy), string(workv1alpha1.ResourceUnhealthy), string(workv1alpha1.ResourceUnknown),
}

// ValidateWork checks a Work on create.
func ValidateWork(work *workv1alpha1.Work) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&work.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, ValidateWorkSpec(&work.Spec, field.NewPath("spec"))...)
	return append(allErrs, ValidateWorkStatus(&work.Status, field.NewPath("status"))...)
}

// ValidateWorkUpdate checks a Work on update.
func ValidateWorkUpdate(newWork, oldWork *workv1alpha1.Work) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMetaUpdate(&newWork.ObjectMeta, &oldWork.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, ValidateWork(newWork)...)
}

// ValidateWorkSpec checks that every manifest is a JSON object naming its apiVersion, kind and
// metadata.name, since the execution controller must be able to address it in the member cluster.
func ValidateWorkSpec(spec *workv1alpha1.WorkSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i := range spec.Workload.Manifests {
		allErrs = append(allErrs, validateManifest(&spec.Workload.Manifests[i], fldPath.Child("workload", "manifests").Index(i))...)
	}
	return allErrs
}

func validateManifest(manifest *workv1alpha1.Manifest, p *field.Path) field.ErrorList {
	raw := manifest.Raw
	if len(raw) == 0 && manifest.Object != nil {
		encoded, err := json.Marshal(manifest.Object)
		if err != nil {
			return field.ErrorList{field.Invalid(p, "", "cannot be encoded as JSON: "+err.Error())}
		}
		raw = encoded
	}
	if len(raw) == 0 {
		return field.ErrorList{field.Required(p, "must be a Kubernetes object")}
	}
	var obj map[string]interface{}
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return field.ErrorList{field.Invalid(p, "", "must be a JSON object")}
	}

	var allErrs field.ErrorList
	requireString := func(value interface{}, fp *field.Path) {
		switch s, ok := value.(string); {
		case value == nil || (ok && s == ""):
			allErrs = append(allErrs, field.Required(fp, ""))
		case !ok:
			allErrs = append(allErrs, field.Invalid(fp, value, "must be a string"))
		}
	}
	requireString(obj["apiVersion"], p.Child("apiVersion"))
	requireString(obj["kind"], p.Child("kind"))
	switch meta := obj["metadata"].(type) {
	case map[string]interface{}:
		requireString(meta["name"], p.Child("metadata", "name"))
	case nil:
		allErrs = append(allErrs, field.Required(p.Child("metadata", "name"), ""))
	default:
		allErrs = append(allErrs, field.Invalid(p.Child("metadata"), "", "must be a JSON object"))
	}
	return allErrs
}

// ValidateWorkStatus checks the conditions and per-manifest health reported for a Work.
func ValidateWorkStatus(status *workv1alpha1.WorkStatus, fldPath *field.Path) field.ErrorList {
	allErrs := metav1validation.ValidateConditions(status.Conditions, fldPath.Child("conditions"))
	for i, ms := range status.ManifestStatuses {
		switch ms.Health {
		case "", workv1alpha1.ResourceHealthy, workv1alpha1.ResourceUnhealthy, workv1alpha1.ResourceUnknown:
		default:
			p := fldPath.Child("manifestStatuses").Index(i).Child("health")
			allErrs = append(allErrs, field.NotSupported(p, ms.Health, supportedWorkHealth))
		}
	}
	return allErrs
}
