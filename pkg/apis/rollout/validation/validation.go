// Package validation checks rollout.mco-org.github.io objects.
package validation

import (
	"fmt"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyvalidation "github.com/mco-org/mco/pkg/apis/policy/validation"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// ValidateRolloutPolicy checks a RolloutPolicy.
func ValidateRolloutPolicy(p *rolloutv1alpha1.RolloutPolicy) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&p.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateSpec(&p.Spec, p.Namespace, field.NewPath("spec"))...)
}

// ValidateClusterRolloutPolicy checks a ClusterRolloutPolicy.
func ValidateClusterRolloutPolicy(p *rolloutv1alpha1.ClusterRolloutPolicy) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&p.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	return append(errs, validateSpec(&p.Spec, "", field.NewPath("spec"))...)
}

var failureActions = sets.New(rolloutv1alpha1.FailurePause, rolloutv1alpha1.FailureRollback, rolloutv1alpha1.FailureContinue)

func validateSpec(spec *rolloutv1alpha1.RolloutPolicySpec, namespace string, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(spec.ResourceSelectors) == 0 {
		errs = append(errs, field.Required(p.Child("resourceSelectors"), "a policy selects at least one template"))
	}
	errs = append(errs, policyvalidation.ValidateResourceSelectors(spec.ResourceSelectors, namespace, p.Child("resourceSelectors"))...)
	errs = append(errs, validateWaves(spec.Waves, p.Child("waves"))...)
	errs = append(errs, validateHealthCheck(&spec.HealthCheck, p.Child("healthCheck"))...)
	if spec.OnFailure != "" && !failureActions.Has(spec.OnFailure) {
		errs = append(errs, field.NotSupported(p.Child("onFailure"), spec.OnFailure, sets.List(failureActions)))
	}
	if l := spec.RevisionHistoryLimit; l != nil && *l < 0 {
		errs = append(errs, field.Invalid(p.Child("revisionHistoryLimit"), *l, "must be 0 or more"))
	}
	return errs
}

func validateWaves(waves []rolloutv1alpha1.Wave, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(waves) == 0 {
		return append(errs, field.Required(p, "a policy has at least one wave"))
	}
	seen := sets.New[string]()
	for i := range waves {
		w, wp := &waves[i], p.Index(i)
		for _, msg := range validation.IsDNS1123Label(w.Name) {
			errs = append(errs, field.Invalid(wp.Child("name"), w.Name, msg))
		}
		if seen.Has(w.Name) {
			errs = append(errs, field.Duplicate(wp.Child("name"), w.Name))
		}
		seen.Insert(w.Name)
		named := len(w.ClusterNames) > 0 || w.LabelSelector != nil
		switch {
		case w.Rest && i != len(waves)-1:
			errs = append(errs, field.Invalid(wp.Child("rest"), w.Rest, "only the last wave may hold the rest of the clusters"))
		case w.Rest && named:
			errs = append(errs, field.Invalid(wp.Child("rest"), w.Rest, "a wave holding the rest names no clusters (clusterNames, labelSelector)"))
		case !w.Rest && !named:
			errs = append(errs, field.Required(wp.Child("clusterNames"), "a wave names its clusters by clusterNames or labelSelector, or sets rest"))
		}
		for j, n := range w.ClusterNames {
			for _, msg := range validation.IsDNS1123Subdomain(n) {
				errs = append(errs, field.Invalid(wp.Child("clusterNames").Index(j), n, msg))
			}
		}
		errs = append(errs, metav1validation.ValidateLabelSelector(w.LabelSelector, metav1validation.LabelSelectorValidationOptions{}, wp.Child("labelSelector"))...)
		errs = append(errs, validateMaxUnavailable(w.MaxUnavailableClusters, wp.Child("maxUnavailableClusters"))...)
		if w.HealthyFor != nil && w.HealthyFor.Duration < 0 {
			errs = append(errs, field.Invalid(wp.Child("healthyFor"), w.HealthyFor.Duration.String(), "must not be negative"))
		}
	}
	return errs
}

func validateMaxUnavailable(v *intstr.IntOrString, p *field.Path) field.ErrorList {
	if v == nil {
		return nil
	}
	if v.Type == intstr.Int {
		if v.IntVal < 1 {
			return field.ErrorList{field.Invalid(p, v.IntVal, "must be at least 1")}
		}
		return nil
	}
	var pct int
	if _, err := fmt.Sscanf(v.StrVal, "%d%%", &pct); err != nil || fmt.Sprintf("%d%%", pct) != v.StrVal || pct < 1 || pct > 100 {
		return field.ErrorList{field.Invalid(p, v.StrVal, "must be a number of clusters or a percentage from 1% to 100%")}
	}
	return nil
}

var conditionStatuses = sets.New(metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown)

func validateHealthCheck(h *rolloutv1alpha1.HealthCheck, p *field.Path) field.ErrorList {
	var errs field.ErrorList
	if c := h.Condition; c != nil {
		if c.Type == "" {
			errs = append(errs, field.Required(p.Child("condition", "type"), "the condition that must hold"))
		}
		if c.Status != "" && !conditionStatuses.Has(c.Status) {
			errs = append(errs, field.NotSupported(p.Child("condition", "status"), c.Status, sets.List(conditionStatuses)))
		}
	}
	if h.Timeout != nil && h.Timeout.Duration <= 0 {
		errs = append(errs, field.Invalid(p.Child("timeout"), h.Timeout.Duration.String(), "must be positive"))
	}
	return errs
}

// ValidateRollout checks a Rollout.
func ValidateRollout(r *rolloutv1alpha1.Rollout) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&r.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	p := field.NewPath("spec")
	res := r.Spec.Resource
	for name, v := range map[string]string{"apiVersion": res.APIVersion, "kind": res.Kind, "name": res.Name} {
		if v == "" {
			errs = append(errs, field.Required(p.Child("resource", name), ""))
		}
	}
	if rel := r.Spec.Release; rel != nil {
		if rel.Revision < 1 {
			errs = append(errs, field.Invalid(p.Child("release", "revision"), rel.Revision, "must be at least 1"))
		}
		if rel.ThroughWave == "" {
			errs = append(errs, field.Required(p.Child("release", "throughWave"), "the last wave released"))
		}
	}
	if rb := r.Spec.Rollback; rb != nil {
		if rb.ToRevision < 1 {
			errs = append(errs, field.Invalid(p.Child("rollback", "toRevision"), rb.ToRevision, "must be at least 1"))
		}
		if rb.FromRevision < 1 {
			errs = append(errs, field.Invalid(p.Child("rollback", "fromRevision"), rb.FromRevision, "must be at least 1"))
		}
	}
	return errs
}

// ValidateRolloutUpdate checks a change of a Rollout: its template stays.
func ValidateRolloutUpdate(r, old *rolloutv1alpha1.Rollout) field.ErrorList {
	errs := ValidateRollout(r)
	if r.Spec.Resource != old.Spec.Resource {
		errs = append(errs, field.Invalid(field.NewPath("spec", "resource"), r.Spec.Resource, "is immutable"))
	}
	return errs
}
