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
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateDaemonSet checks a new DaemonSet.
func ValidateDaemonSet(ds *appsv1.DaemonSet) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&ds.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateDaemonSetSpec(&ds.Spec, specPath)...)
}

// ValidateDaemonSetUpdate checks an update of a DaemonSet: the new object in
// full, and that the selector is unchanged.
func ValidateDaemonSetUpdate(ds, old *appsv1.DaemonSet) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&ds.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateDaemonSetSpec(&ds.Spec, specPath)...)
	return append(errs, immutable(ds.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
}

func validateDaemonSetSpec(s *appsv1.DaemonSetSpec, fldPath *field.Path) field.ErrorList {
	errs := validateSelector(s.Selector, s.Template.Labels, false, fldPath)
	errs = append(errs, validatePodTemplateSpec(&s.Template, longRunning, fldPath.Child("template"))...)
	errs = append(errs, validateDaemonSetUpdateStrategy(&s.UpdateStrategy, fldPath.Child("updateStrategy"))...)
	errs = append(errs, validateNonNegative(int64(s.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	return append(errs, optionalNonNegative(s.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
}

// validateDaemonSetUpdateStrategy checks the update strategy. A rolling
// update of a DaemonSet either takes pods down first (maxUnavailable) or
// starts the new pod first (maxSurge), one of the two and not both.
func validateDaemonSetUpdateStrategy(st *appsv1.DaemonSetUpdateStrategy, fldPath *field.Path) field.ErrorList {
	ruPath := fldPath.Child("rollingUpdate")
	switch st.Type {
	case appsv1.OnDeleteDaemonSetStrategyType:
		// Left-over rolling parameters are ignored, as on a cluster: switching
		// a defaulted DaemonSet to OnDelete with kubectl apply keeps them.
		return nil
	case appsv1.RollingUpdateDaemonSetStrategyType:
		ru := st.RollingUpdate
		if ru == nil {
			return field.ErrorList{field.Required(ruPath, "must be set when strategy `type` is 'RollingUpdate'")}
		}
		muPath, msPath := ruPath.Child("maxUnavailable"), ruPath.Child("maxSurge")
		errs := validateIntOrPercent(ru.MaxUnavailable, muPath)
		errs = append(errs, validateIntOrPercent(ru.MaxSurge, msPath)...)
		errs = append(errs, validateAtMost100Percent(ru.MaxUnavailable, muPath)...)
		errs = append(errs, validateAtMost100Percent(ru.MaxSurge, msPath)...)
		unavailable, surge := intOrPercentValue(ru.MaxUnavailable) != 0, intOrPercentValue(ru.MaxSurge) != 0
		switch {
		case unavailable && surge:
			errs = append(errs, field.Invalid(msPath, ru.MaxSurge, "may not be set when `maxUnavailable` is not 0"))
		case !unavailable && !surge:
			errs = append(errs, field.Invalid(muPath, ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
		}
		return errs
	}
	return validateEnum(st.Type, fldPath.Child("type"),
		appsv1.RollingUpdateDaemonSetStrategyType, appsv1.OnDeleteDaemonSetStrategyType)
}
