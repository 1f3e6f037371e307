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
	"fmt"
	"strings"
	"time"

	"github.com/robfig/cron/v3"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
)

// Bounds of a rule, as Karmada's CRD schema sets them.
const (
	maxRuleNameLength = 32
	maxHistoryLimit   = 32
)

// ValidateCronFederatedHPA checks a CronFederatedHPA as Karmada's webhook
// and CRD schema do: a scale target with kind and name, of kind
// FederatedHPA when its API version is autoscaling.karmada.io/v1alpha1;
// rules with unique names of 1-32 characters, a five-field cron schedule,
// a time zone Go knows, history limits in range, and what to set —
// targetReplicas for a template, targetMinReplicas or targetMaxReplicas
// for a FederatedHPA.
func ValidateCronFederatedHPA(c *autoscalingv1alpha1.CronFederatedHPA) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&c.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	ref := c.Spec.ScaleTargetRef
	refPath := spec.Child("scaleTargetRef")
	if ref.Kind == "" {
		allErrs = append(allErrs, field.Required(refPath.Child("kind"), ""))
	}
	if ref.Name == "" {
		allErrs = append(allErrs, field.Required(refPath.Child("name"), ""))
	}
	scalesFHPA := ScalesFederatedHPA(c)
	if ref.APIVersion == autoscalingv1alpha1.SchemeGroupVersion.String() && !scalesFHPA {
		allErrs = append(allErrs, field.Invalid(refPath.Child("kind"), ref.Kind,
			fmt.Sprintf("invalid scaleTargetRef kind: %s, only support %s", ref.Kind, autoscalingv1alpha1.ResourceKindFederatedHPA)))
	}
	names := sets.New[string]()
	for i, rule := range c.Spec.Rules {
		path := spec.Child("rules").Index(i)
		allErrs = append(allErrs, validateRule(rule, path, scalesFHPA, ref.Kind)...)
		if names.Has(rule.Name) {
			allErrs = append(allErrs, field.Duplicate(path.Child("name"), rule.Name))
		}
		names.Insert(rule.Name)
	}
	return allErrs
}

// ValidateCronFederatedHPAUpdate checks an update as a create.
func ValidateCronFederatedHPAUpdate(c, _ *autoscalingv1alpha1.CronFederatedHPA) field.ErrorList {
	return ValidateCronFederatedHPA(c)
}

// ScalesFederatedHPA tells whether a CronFederatedHPA's target is a
// FederatedHPA (whose bounds it sets) rather than a template.
func ScalesFederatedHPA(c *autoscalingv1alpha1.CronFederatedHPA) bool {
	ref := c.Spec.ScaleTargetRef
	return ref.APIVersion == autoscalingv1alpha1.SchemeGroupVersion.String() && ref.Kind == autoscalingv1alpha1.ResourceKindFederatedHPA
}

func validateRule(rule autoscalingv1alpha1.CronFederatedHPARule, path *field.Path, scalesFHPA bool, kind string) field.ErrorList {
	var allErrs field.ErrorList
	switch {
	case rule.Name == "":
		allErrs = append(allErrs, field.Required(path.Child("name"), ""))
	case len(rule.Name) > maxRuleNameLength:
		allErrs = append(allErrs, field.TooLong(path.Child("name"), rule.Name, maxRuleNameLength))
	}
	if _, err := ParseSchedule(rule.Schedule); err != nil {
		allErrs = append(allErrs, field.Invalid(path.Child("schedule"), rule.Schedule, err.Error()))
	}
	if rule.TimeZone != nil {
		if _, err := time.LoadLocation(*rule.TimeZone); err != nil || *rule.TimeZone == "" {
			allErrs = append(allErrs, field.Invalid(path.Child("timeZone"), *rule.TimeZone, "unknown time zone"))
		}
	}
	allErrs = append(allErrs, validateLimit(rule.SuccessfulHistoryLimit, 1, path.Child("successfulHistoryLimit"))...)
	allErrs = append(allErrs, validateLimit(rule.FailedHistoryLimit, 0, path.Child("failedHistoryLimit"))...)
	for _, t := range []struct {
		name string
		v    *int32
	}{{"targetReplicas", rule.TargetReplicas}, {"targetMinReplicas", rule.TargetMinReplicas}, {"targetMaxReplicas", rule.TargetMaxReplicas}} {
		if t.v != nil && *t.v < 0 {
			allErrs = append(allErrs, field.Invalid(path.Child(t.name), *t.v, "must be greater than or equal to 0"))
		}
	}
	if scalesFHPA {
		if rule.TargetMinReplicas == nil && rule.TargetMaxReplicas == nil {
			allErrs = append(allErrs, field.Invalid(path, "", "targetMinReplicas and targetMaxReplicas cannot be nil at the same time if you want to scale FederatedHPA"))
		}
		if rule.TargetMinReplicas != nil && rule.TargetMaxReplicas != nil && *rule.TargetMinReplicas > *rule.TargetMaxReplicas {
			allErrs = append(allErrs, field.Invalid(path.Child("targetMaxReplicas"), *rule.TargetMaxReplicas, "must be greater than or equal to targetMinReplicas"))
		}
		return allErrs
	}
	if rule.TargetReplicas == nil {
		allErrs = append(allErrs, field.Invalid(path, "", fmt.Sprintf("targetReplicas cannot be nil if you want to scale %s", kind)))
	}
	return allErrs
}

func validateLimit(v *int32, lowest int32, path *field.Path) field.ErrorList {
	if v != nil && (*v < lowest || *v > maxHistoryLimit) {
		return field.ErrorList{field.Invalid(path, *v, fmt.Sprintf("must be between %d and %d", lowest, maxHistoryLimit))}
	}
	return nil
}

// ParseSchedule reads a rule's schedule: five fields (minute, hour, day of
// month, month, day of week) or a descriptor such as @hourly, as a
// CronJob's; a time zone belongs in timeZone, not in the schedule.
func ParseSchedule(schedule string) (cron.Schedule, error) {
	if strings.Contains(schedule, "TZ=") {
		return nil, fmt.Errorf("the time zone goes in timeZone, not in the schedule")
	}
	s, err := cron.ParseStandard(schedule)
	if err != nil {
		return nil, fmt.Errorf("invalid cron format: %w", err)
	}
	return s, nil
}
