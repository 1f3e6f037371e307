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
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxFileMode is the largest permission mode a projected file may get.
const maxFileMode int32 = 0o777

// validateVolumes checks the pod's volumes and returns their names.
func validateVolumes(volumes []corev1.Volume, fldPath *field.Path) (sets.Set[string], field.ErrorList) {
	var errs field.ErrorList
	names := sets.New[string]()
	for i := range volumes {
		v := &volumes[i]
		idx := fldPath.Index(i)
		switch {
		case v.Name == "":
			errs = append(errs, field.Required(idx.Child("name"), ""))
		case names.Has(v.Name):
			errs = append(errs, field.Duplicate(idx.Child("name"), v.Name))
		default:
			errs = append(errs, validateDNSLabel(v.Name, idx.Child("name"))...)
		}
		names.Insert(v.Name)
		errs = append(errs, validateOneOf(&v.VolumeSource, idx, "volume type")...)
		errs = append(errs, validateVolumeSource(&v.VolumeSource, idx)...)
	}
	return names, errs
}

// validateVolumeSource checks the common volume types in more depth; the
// rest are passed through to the member clusters as written.
func validateVolumeSource(s *corev1.VolumeSource, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	if s.HostPath != nil && s.HostPath.Path == "" {
		errs = append(errs, field.Required(fldPath.Child("hostPath", "path"), ""))
	}
	if s.PersistentVolumeClaim != nil && s.PersistentVolumeClaim.ClaimName == "" {
		errs = append(errs, field.Required(fldPath.Child("persistentVolumeClaim", "claimName"), ""))
	}
	if s.Secret != nil {
		p := fldPath.Child("secret")
		if s.Secret.SecretName == "" {
			errs = append(errs, field.Required(p.Child("secretName"), ""))
		}
		errs = append(errs, validateFileMode(s.Secret.DefaultMode, p.Child("defaultMode"))...)
		errs = append(errs, validateKeyToPaths(s.Secret.Items, p.Child("items"))...)
	}
	if s.ConfigMap != nil {
		p := fldPath.Child("configMap")
		if s.ConfigMap.Name == "" {
			errs = append(errs, field.Required(p.Child("name"), ""))
		}
		errs = append(errs, validateFileMode(s.ConfigMap.DefaultMode, p.Child("defaultMode"))...)
		errs = append(errs, validateKeyToPaths(s.ConfigMap.Items, p.Child("items"))...)
	}
	if s.DownwardAPI != nil {
		p := fldPath.Child("downwardAPI")
		errs = append(errs, validateFileMode(s.DownwardAPI.DefaultMode, p.Child("defaultMode"))...)
		for i, item := range s.DownwardAPI.Items {
			errs = append(errs, validateVolumeFilePath(item.Path, p.Child("items").Index(i).Child("path"))...)
		}
	}
	if s.Projected != nil {
		errs = append(errs, validateFileMode(s.Projected.DefaultMode, fldPath.Child("projected", "defaultMode"))...)
	}
	if s.Ephemeral != nil {
		p := fldPath.Child("ephemeral", "volumeClaimTemplate")
		if s.Ephemeral.VolumeClaimTemplate == nil {
			errs = append(errs, field.Required(p, ""))
		} else {
			errs = append(errs, validatePersistentVolumeClaimSpec(&s.Ephemeral.VolumeClaimTemplate.Spec, p.Child("spec"))...)
		}
	}
	return errs
}

func validateFileMode(mode *int32, fldPath *field.Path) field.ErrorList {
	if mode == nil || (*mode >= 0 && *mode <= maxFileMode) {
		return nil
	}
	return field.ErrorList{field.Invalid(fldPath, *mode, "must be a number between 0 and 0777 (octal), both inclusive")}
}

func validateKeyToPaths(items []corev1.KeyToPath, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, item := range items {
		idx := fldPath.Index(i)
		if item.Key == "" {
			errs = append(errs, field.Required(idx.Child("key"), ""))
		}
		errs = append(errs, validateVolumeFilePath(item.Path, idx.Child("path"))...)
		errs = append(errs, validateFileMode(item.Mode, idx.Child("mode"))...)
	}
	return errs
}

// validateVolumeFilePath checks the path of a file projected into a volume:
// required, relative, and not escaping the volume.
func validateVolumeFilePath(p string, fldPath *field.Path) field.ErrorList {
	switch {
	case p == "":
		return field.ErrorList{field.Required(fldPath, "")}
	case strings.HasPrefix(p, "/"):
		return field.ErrorList{field.Invalid(fldPath, p, "must be a relative path")}
	case hasDotDot(p):
		return field.ErrorList{field.Invalid(fldPath, p, "must not contain '..'")}
	}
	return nil
}
