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
	"k8s.io/client-go/util/jsonpath"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

var (
	// supportedApplicationPurgeModes includes the deprecated spellings, which
	// are still accepted.
	supportedApplicationPurgeModes = []policyv1alpha1.PurgeMode{
		policyv1alpha1.PurgeModeDirectly, policyv1alpha1.PurgeModeGracefully, policyv1alpha1.Never,
		policyv1alpha1.Immediately, policyv1alpha1.Graciously,
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
	graceful := app.PurgeMode == policyv1alpha1.PurgeModeGracefully || app.PurgeMode == policyv1alpha1.Graciously
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

// validateStatePreservation requires at least one rule; each rule hands a
// value over under a label key and reads it with a JSONPath template.
func validateStatePreservation(preservation *policyv1alpha1.StatePreservation, fldPath *field.Path) field.ErrorList {
	if preservation == nil {
		return nil
	}
	rulesPath := fldPath.Child("rules")
	if len(preservation.Rules) == 0 {
		return field.ErrorList{field.Required(rulesPath, "at least one rule is needed")}
	}
	var allErrs field.ErrorList
	for i, rule := range preservation.Rules {
		p := rulesPath.Index(i)
		allErrs = append(allErrs, validateQualifiedName(rule.AliasLabelName, p.Child("aliasLabelName"))...)
		if rule.JSONPath == "" {
			allErrs = append(allErrs, field.Required(p.Child("jsonPath"), "a JSONPath template such as {.readyReplicas} is needed"))
			continue
		}
		if err := jsonpath.New("statePreservation").Parse(rule.JSONPath); err != nil {
			allErrs = append(allErrs, field.Invalid(p.Child("jsonPath"), rule.JSONPath, "not a valid JSONPath template: "+err.Error()))
		}
	}
	return allErrs
}
