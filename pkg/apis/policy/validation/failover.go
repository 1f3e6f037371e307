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
)

// The purge modes Karmada v1.19 accepts; the old spellings Immediately and
// Graciously are gone there too.
var (
	supportedApplicationPurgeModes = []policyv1alpha1.PurgeMode{
		policyv1alpha1.PurgeModeDirectly, policyv1alpha1.PurgeModeGracefully, policyv1alpha1.Never,
	}
	supportedClusterPurgeModes = []policyv1alpha1.PurgeMode{policyv1alpha1.PurgeModeDirectly, policyv1alpha1.PurgeModeGracefully}
)

func validateFailover(failover *policyv1alpha1.FailoverBehavior, fldPath *field.Path) field.ErrorList {
	if failover == nil {
		return nil
	}
	allErrs := validateApplicationFailover(failover.Application, fldPath.Child("application"))
	return append(allErrs, validateClusterFailover(failover.Cluster, fldPath.Child("cluster"))...)
}

// validateApplicationFailover checks the toleration, the purge mode and the
// grace period, which belongs to a graceful purge only. An empty purge mode
// (not yet defaulted) skips the grace period pairing.
func validateApplicationFailover(app *policyv1alpha1.ApplicationFailoverBehavior, fldPath *field.Path) field.ErrorList {
	if app == nil {
		return nil
	}
	var allErrs field.ErrorList
	if seconds := app.DecisionConditions.TolerationSeconds; seconds != nil && *seconds < 0 {
		allErrs = append(allErrs, field.Invalid(fldPath.Child("decisionConditions", "tolerationSeconds"), *seconds, "may not be negative"))
	}
	allErrs = append(allErrs, validateEnum(app.PurgeMode, true, supportedApplicationPurgeModes, fldPath.Child("purgeMode"))...)

	gracePath := fldPath.Child("gracePeriodSeconds")
	graceful := app.PurgeMode == policyv1alpha1.PurgeModeGracefully
	switch {
	case graceful && app.GracePeriodSeconds == nil:
		allErrs = append(allErrs, field.Required(gracePath, "a graceful purge needs a grace period"))
	case !graceful && app.PurgeMode != "" && app.GracePeriodSeconds != nil:
		allErrs = append(allErrs, field.Forbidden(gracePath, "only applies when purgeMode is Gracefully"))
	}
	if seconds := app.GracePeriodSeconds; seconds != nil && *seconds <= 0 {
		allErrs = append(allErrs, field.Invalid(gracePath, *seconds, "must be greater than zero"))
	}
	return append(allErrs, validateStatePreservation(app.StatePreservation, fldPath.Child("statePreservation"))...)
}

func validateClusterFailover(cluster *policyv1alpha1.ClusterFailoverBehavior, fldPath *field.Path) field.ErrorList {
	if cluster == nil {
		return nil
	}
	allErrs := validateEnum(cluster.PurgeMode, true, supportedClusterPurgeModes, fldPath.Child("purgeMode"))
	return append(allErrs, validateStatePreservation(cluster.StatePreservation, fldPath.Child("statePreservation"))...)
}

// validateStatePreservation requires the list of rules, which may be empty
// (Karmada's schema has no minimum); each rule hands a value over under a
// label key and names a JSONPath template. The template is not parsed: as in
// Karmada, one that does not parse just preserves nothing.
func validateStatePreservation(preservation *policyv1alpha1.StatePreservation, fldPath *field.Path) field.ErrorList {
	if preservation == nil {
		return nil
	}
	rulesPath := fldPath.Child("rules")
	if preservation.Rules == nil {
		return field.ErrorList{field.Required(rulesPath, "a list of rules is needed (it may be empty)")}
	}
	var allErrs field.ErrorList
	for i, rule := range preservation.Rules {
		p := rulesPath.Index(i)
		allErrs = append(allErrs, validateQualifiedName(rule.AliasLabelName, p.Child("aliasLabelName"))...)
		if rule.JSONPath == "" {
			allErrs = append(allErrs, field.Required(p.Child("jsonPath"), "a JSONPath template such as {.readyReplicas} is needed"))
		}
	}
	return allErrs
}
