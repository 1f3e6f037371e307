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
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var accessModes = []corev1.PersistentVolumeAccessMode{
	corev1.ReadWriteOnce, corev1.ReadOnlyMany, corev1.ReadWriteMany, corev1.ReadWriteOncePod,
}

// ValidatePersistentVolumeClaim checks a new PersistentVolumeClaim.
func ValidatePersistentVolumeClaim(pvc *corev1.PersistentVolumeClaim) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&pvc.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validatePersistentVolumeClaimSpec(&pvc.Spec, specPath)...)
}

// ValidatePersistentVolumeClaimUpdate checks an update of a claim: the new
// object in full, and that the spec is unchanged except for
// resources, volumeAttributesClassName and a volumeName that was empty.
func ValidatePersistentVolumeClaimUpdate(pvc, old *corev1.PersistentVolumeClaim) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&pvc.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validatePersistentVolumeClaimSpec(&pvc.Spec, specPath)...)
	// Lay the mutable fields of the new spec over the old one; what is left
	// differing was changed although it may not be.
	allowed := *old.Spec.DeepCopy()
	allowed.Resources = pvc.Spec.Resources
	allowed.VolumeAttributesClassName = pvc.Spec.VolumeAttributesClassName
	if old.Spec.VolumeName == "" {
		allowed.VolumeName = pvc.Spec.VolumeName
	}
	if !apiequality.Semantic.DeepEqual(pvc.Spec, allowed) {
		errs = append(errs, field.Forbidden(specPath, "spec is immutable after creation except resources, "+
			"volumeAttributesClassName and an unset volumeName"))
	}
	return errs
}

// validatePersistentVolumeClaimSpec checks a claim spec, of a claim or of a
// claim template, at fldPath.
func validatePersistentVolumeClaimSpec(s *corev1.PersistentVolumeClaimSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	amPath := fldPath.Child("accessModes")
	if len(s.AccessModes) == 0 {
		errs = append(errs, field.Required(amPath, "at least 1 access mode is required"))
	}
	seen := sets.New[corev1.PersistentVolumeAccessMode]()
	for i, m := range s.AccessModes {
		errs = append(errs, validateEnum(m, amPath.Index(i), accessModes...)...)
		seen.Insert(m)
	}
	// ReadWriteOncePod is exclusive by definition; it cannot be combined.
	if seen.Has(corev1.ReadWriteOncePod) && len(s.AccessModes) > 1 {
		errs = append(errs, field.Forbidden(amPath, "may not use ReadWriteOncePod with other access modes"))
	}

	reqPath := fldPath.Child("resources", "requests")
	storagePath := reqPath.Key(string(corev1.ResourceStorage))
	if q, ok := s.Resources.Requests[corev1.ResourceStorage]; !ok {
		errs = append(errs, field.Required(storagePath, ""))
	} else if q.Sign() <= 0 {
		errs = append(errs, field.Invalid(storagePath, q.String(), "must be greater than 0"))
	}
	for name, q := range s.Resources.Requests {
		if name != corev1.ResourceStorage && q.Sign() < 0 {
			errs = append(errs, field.Invalid(reqPath.Key(string(name)), q.String(), "must be greater than or equal to 0"))
		}
	}
	for name, q := range s.Resources.Limits {
		if q.Sign() < 0 {
			errs = append(errs, field.Invalid(fldPath.Child("resources", "limits").Key(string(name)), q.String(), "must be greater than or equal to 0"))
		}
	}

	if s.VolumeMode != nil {
		errs = append(errs, validateEnum(*s.VolumeMode, fldPath.Child("volumeMode"),
			corev1.PersistentVolumeFilesystem, corev1.PersistentVolumeBlock)...)
	}
	if s.StorageClassName != nil && *s.StorageClassName != "" {
		errs = append(errs, validateDNSSubdomain(*s.StorageClassName, fldPath.Child("storageClassName"))...)
	}
	if s.VolumeAttributesClassName != nil && *s.VolumeAttributesClassName != "" {
		errs = append(errs, validateDNSSubdomain(*s.VolumeAttributesClassName, fldPath.Child("volumeAttributesClassName"))...)
	}
	errs = append(errs, metav1validation.ValidateLabelSelector(s.Selector, metav1validation.LabelSelectorValidationOptions{}, fldPath.Child("selector"))...)
	if ds := s.DataSource; ds != nil {
		if ds.Kind == "" {
			errs = append(errs, field.Required(fldPath.Child("dataSource", "kind"), ""))
		}
		if ds.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("dataSource", "name"), ""))
		}
	}
	if ref := s.DataSourceRef; ref != nil {
		if ref.Kind == "" {
			errs = append(errs, field.Required(fldPath.Child("dataSourceRef", "kind"), ""))
		}
		if ref.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("dataSourceRef", "name"), ""))
		}
	}
	return errs
}
