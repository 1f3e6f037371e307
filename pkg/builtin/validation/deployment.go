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

// ValidateDeployment checks a new Deployment.
func ValidateDeployment(d *appsv1.Deployment) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&d.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateDeploymentSpec(&d.Spec, specPath)...)
}

// ValidateDeploymentUpdate checks an update of a Deployment: the new object
// in full, and that the selector is unchanged.
func ValidateDeploymentUpdate(d, old *appsv1.Deployment) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&d.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateDeploymentSpec(&d.Spec, specPath)...)
	return append(errs, immutable(d.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
}

func validateDeploymentSpec(s *appsv1.DeploymentSpec, fldPath *field.Path) field.ErrorList {
	errs := optionalNonNegative(s.Replicas, fldPath.Child("replicas"))
	errs = append(errs, validateSelector(s.Selector, s.Template.Labels, false, fldPath)...)
	errs = append(errs, validatePodTemplateSpec(&s.Template, longRunning, fldPath.Child("template"))...)
	errs = append(errs, validateDeploymentStrategy(&s.Strategy, fldPath.Child("strategy"))...)
	errs = append(errs, validateNonNegative(int64(s.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	errs = append(errs, optionalNonNegative(s.RevisionHistoryLimit, fldPath.Child("revisionHistoryLimit"))...)
	if p := s.ProgressDeadlineSeconds; p != nil {
		pPath := fldPath.Child("progressDeadlineSeconds")
		errs = append(errs, validateNonNegative(int64(*p), pPath)...)
		if *p >= 0 && *p <= s.MinReadySeconds {
			errs = append(errs, field.Invalid(pPath, *p, "must be greater than minReadySeconds"))
		}
	}
	return errs
}

func validateDeploymentStrategy(st *appsv1.DeploymentStrategy, fldPath *field.Path) field.ErrorList {
	ruPath := fldPath.Child("rollingUpdate")
	switch st.Type {
	case appsv1.RecreateDeploymentStrategyType:
		if st.RollingUpdate != nil {
			return field.ErrorList{field.Forbidden(ruPath, "may not be specified when strategy `type` is 'Recreate'")}
		}
		return nil
	case appsv1.RollingUpdateDeploymentStrategyType:
		ru := st.RollingUpdate
		if ru == nil {
			return field.ErrorList{field.Required(ruPath, "must be set when strategy `type` is 'RollingUpdate'")}
		}
		errs := validateIntOrPercent(ru.MaxUnavailable, ruPath.Child("maxUnavailable"))
		errs = append(errs, validateIntOrPercent(ru.MaxSurge, ruPath.Child("maxSurge"))...)
		errs = append(errs, validateAtMost100Percent(ru.MaxUnavailable, ruPath.Child("maxUnavailable"))...)
		if intOrPercentValue(ru.MaxUnavailable) == 0 && intOrPercentValue(ru.MaxSurge) == 0 {
			// Neither an old pod may go nor a new one be added: no progress.
			errs = append(errs, field.Invalid(ruPath.Child("maxUnavailable"), ru.MaxUnavailable, "may not be 0 when `maxSurge` is 0"))
		}
		return errs
	}
	return validateEnum(st.Type, fldPath.Child("type"),
		appsv1.RollingUpdateDeploymentStrategyType, appsv1.RecreateDeploymentStrategyType)
}

// ValidateReplicaSet checks a new ReplicaSet.
func ValidateReplicaSet(rs *appsv1.ReplicaSet) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&rs.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateReplicaSetSpec(&rs.Spec, specPath)...)
}

// ValidateReplicaSetUpdate checks an update of a ReplicaSet: the new object
// in full, and that the selector is unchanged.
func ValidateReplicaSetUpdate(rs, old *appsv1.ReplicaSet) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&rs.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateReplicaSetSpec(&rs.Spec, specPath)...)
	return append(errs, immutable(rs.Spec.Selector, old.Spec.Selector, specPath.Child("selector"))...)
}

func validateReplicaSetSpec(s *appsv1.ReplicaSetSpec, fldPath *field.Path) field.ErrorList {
	errs := optionalNonNegative(s.Replicas, fldPath.Child("replicas"))
	errs = append(errs, validateNonNegative(int64(s.MinReadySeconds), fldPath.Child("minReadySeconds"))...)
	errs = append(errs, validateSelector(s.Selector, s.Template.Labels, false, fldPath)...)
	return append(errs, validatePodTemplateSpec(&s.Template, longRunning, fldPath.Child("template"))...)
}
