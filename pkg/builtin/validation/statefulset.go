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
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateStatefulSet checks a new StatefulSet.
func ValidateStatefulSet(ss *appsv1.StatefulSet) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&ss.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateStatefulSetSpec(&ss.Spec, specPath)...)
}

// ValidateStatefulSetUpdate checks an update of a StatefulSet: the new
// object in full, and that only replicas, ordinals, template, updateStrategy,
// revisionHistoryLimit, persistentVolumeClaimRetentionPolicy and
// minReadySeconds changed.
func ValidateStatefulSetUpdate(ss, old *appsv1.StatefulSet) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&ss.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateStatefulSetSpec(&ss.Spec, specPath)...)

	errs = append(errs, immutable(ss.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
	errs = append(errs, immutable(ss.Spec.ServiceName, old.Spec.ServiceName, specPath.Child("serviceName"))...)
	errs = append(errs, immutable(ss.Spec.PodManagementPolicy, old.Spec.PodManagementPolicy, specPath.Child("podManagementPolicy"))...)
	errs = append(errs, immutable(ss.Spec.VolumeClaimTemplates, old.Spec.VolumeClaimTemplates, specPath.Child("volumeClaimTemplates"))...)
	// Anything else not listed as mutable, including fields added to the
	// API later, is caught here.
	if !apiequality.Semantic.DeepEqual(frozenStatefulSetSpec(ss.Spec), frozenStatefulSetSpec(old.Spec)) {
		errs = append(errs, field.Forbidden(specPath, "updates to statefulset spec for fields other than 'replicas', 'ordinals', "+
			"'template', 'updateStrategy', 'revisionHistoryLimit', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden"))
	}
	return errs
}

// frozenStatefulSetSpec returns s without the fields an update may change or
// that are reported on their own.
func frozenStatefulSetSpec(s appsv1.StatefulSetSpec) appsv1.StatefulSetSpec {
	s.Replicas = nil
	s.Ordinals = nil
	s.Template = corev1.PodTemplateSpec{}
	s.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{}
	s.RevisionHistoryLimit = nil
	s.PersistentVolumeClaimRetentionPolicy = nil
	s.MinReadySeconds = 0
	s.Selector = nil
	s.ServiceName = ""
	s.PodManagementPolicy = ""
	s.VolumeClaimTemplates = nil
	return s
}

func validateStatefulSetSpec(s *appsv1.StatefulSetSpec, fldPath *field.Path) field.ErrorList {
	errs := optionalNonNegative(s.Replicas, fldPath.Child("replicas"))
	errs = append(errs, validateSelector(s.Selector, s.Template.Labels, false, fldPath)...)

	claims, claimErrs := validateVolumeClaimTemplates(s.VolumeClaimTemplates, fldPath.Child("volumeClaimTemplates"))
	errs = append(errs, claimErrs...)
	rules := longRunning
	rules.extraVolumes = claims
	errs = append(errs, validatePodTemplateSpec(&s.Template, rules, fldPath.Child("template"))...)

	if s.ServiceName != "" {
		errs = append(errs, validateDNSLabel(s.ServiceName, fldPath.Child("serviceName"))...)
	}
	errs = append(errs, validateEnum(s.PodManagementPolicy, fldPath.Child("podManagementPolicy"),
		appsv1.OrderedReadyPodManagement, appsv1.ParallelPodManagement)...)
	errs = append(errs, validateStatefulSetUpdateStrategy(&s.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	errs = append(errs, optionalNonNegative(s.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
	errs = append(errs, validateNonNegative(int64(s.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	if p := s.PersistentVolumeClaimRetentionPolicy; p != nil {
		pPath := fldPath.Child("persistentVolumeClaimRetentionPolicy")
		policies := []appsv1.PersistentVolumeClaimRetentionPolicyType{
			appsv1.RetainPersistentVolumeClaimRetentionPolicyType, appsv1.DeletePersistentVolumeClaimRetentionPolicyType}
		errs = append(errs, validateEnum(p.WhenDeleted, pPath.Child("whenDeleted"), policies...)...)
		errs = append(errs, validateEnum(p.WhenScaled, pPath.Child("whenScaled"), policies...)...)
	}
	if s.Ordinals != nil {
		errs = append(errs, validateNonNegative(int64(s.Ordinals.Start), fldPath.Child("ordinals", "start"))...)
	}
	return errs
}

func validateStatefulSetUpdateStrategy(st *appsv1.StatefulSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	ruPath := fldPath.Child("rollingUpdate")
	switch st.Type {
	case appsv1.OnDeleteStatefulSetStrategyType:
		if st.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(ruPath, "may not be specified when strategy `type` is 'OnDelete'")}
		}
		return nil
	case appsv1.RollingUpdateStatefulSetStrategyType:
		ru := st.RollingUpdate
		if ru == nil {
			return nil
		}
		errs := optionalNonNegative(ru.Partition, ruPath.Child("partition"))
		if ru.MaxUnavailable != nil {
			muPath := ruPath.Child("maxUnavailable")
			errs = append(errs, validateIntOrPercent(ru.MaxUnavailable, muPath)...)
			errs = append(errs, validateAtMost100Percent(ru.MaxUnavailable, muPath)...)
			if intOrPercentValue(ru.MaxUnavailable) == 0 {
				errs = append(errs, field.Invalid(muPath, ru.MaxUnavailable, "must be greater than 0"))
			}
		}
		return errs
	}
	return validateEnum(st.Type, fldPath.Child("type"),
		appsv1.RollingUpdateStatefulSetStrategyType, appsv1.OnDeleteStatefulSetStrategyType)
}

// validateVolumeClaimTemplates checks the claim templates and returns their
// names, which pod containers may mount like volumes.
func validateVolumeClaimTemplates(claims []corev1.PersistentVolumeClaim, fldPath *field.Path) (sets.Set[string], field.ErrorList) {
	var errs field.ErrorList
	names := sets.New[string]()
	for i := range claims {
		c := &claims[i]
		idx := fldPath.Index(i)
		namePath := idx.Child("metadata", "name")
		switch {
		case c.Name == "":
			errs = append(errs, field.Required(namePath, ""))
		case names.Has(c.Name):
			errs = append(errs, field.Duplicate(namePath, c.Name))
		default:
			errs = append(errs, validateDNSLabel(c.Name, namePath)...)
		}
		names.Insert(c.Name)
		errs = append(errs, metav1validation.ValidateLabels(c.Labels, idx.Child("metadata", "labels"))...)
		errs = append(errs, apivalidation.ValidateAnnotations(c.Annotations, idx.Child("metadata", "annotations"))...)
		errs = append(errs, validatePersistentVolumeClaimSpec(&c.Spec, idx.Child("spec"))...)
	}
	return names, errs
}
