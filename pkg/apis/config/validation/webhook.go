package validation

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/util/sets"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/util/webhook"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// ContextVersions are the ResourceInterpreterContext versions mco speaks.
var ContextVersions = []string{configv1alpha1.SchemeGroupVersion.Version}

// webhookOperations are the operations a webhook rule may name.
var webhookOperations = sets.New(
	configv1alpha1.InterpreterOperationAll,
	configv1alpha1.InterpreterOperationInterpretReplica,
	configv1alpha1.InterpreterOperationInterpretComponent,
	configv1alpha1.InterpreterOperationReviseReplica,
	configv1alpha1.InterpreterOperationRetain,
	configv1alpha1.InterpreterOperationAggregateStatus,
	configv1alpha1.InterpreterOperationInterpretStatus,
	configv1alpha1.InterpreterOperationInterpretHealth,
	configv1alpha1.InterpreterOperationInterpretDependency,
)

// ValidateResourceInterpreterWebhookConfiguration checks a configuration
// as Karmada's webhook does: unique, fully qualified webhook names; a URL
// (https) or a Service, not both; rules whose lists are not empty and
// hold "*" only alone; a timeout of 1 to 30 seconds; a context version mco
// speaks. It never calls the webhook.
func ValidateResourceInterpreterWebhookConfiguration(c *configv1alpha1.ResourceInterpreterWebhookConfiguration) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	for i := range c.Webhooks {
		path := field.NewPath("webhooks").Index(i)
		hook := &c.Webhooks[i]
		if names.Has(hook.Name) {
			errs = append(errs, field.Duplicate(path.Child("name"), hook.Name))
		}
		names.Insert(hook.Name)
		errs = append(errs, validateWebhook(hook, path)...)
	}
	return errs
}

func validateWebhook(hook *configv1alpha1.ResourceInterpreterWebhook, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if hook.Name == "" {
		errs = append(errs, field.Required(path.Child("name"), "a fully qualified name, such as replicas.example.com"))
	} else {
		errs = append(errs, utilvalidation.IsFullyQualifiedName(path.Child("name"), hook.Name)...)
	}
	errs = append(errs, validateClientConfig(hook, path.Child("clientConfig"))...)
	for j := range hook.Rules {
		errs = append(errs, validateRule(&hook.Rules[j], path.Child("rules").Index(j))...)
	}
	if t := hook.TimeoutSeconds; t != nil && (*t < 1 || *t > 30) {
		errs = append(errs, field.Invalid(path.Child("timeoutSeconds"), *t, "must be between 1 and 30 seconds"))
	}
	errs = append(errs, validateContextVersions(hook.InterpreterContextVersions, path.Child("interpreterContextVersions"))...)
	return errs
}

func validateClientConfig(hook *configv1alpha1.ResourceInterpreterWebhook, path *field.Path) field.ErrorList {
	cc := hook.ClientConfig
	switch {
	case cc.URL == nil && cc.Service == nil:
		return field.ErrorList{field.Required(path, "exactly one of url or service is required")}
	case cc.URL != nil && cc.Service != nil:
		return field.ErrorList{field.Forbidden(path, "exactly one of url or service is allowed, not both")}
	case cc.URL != nil:
		return append(webhook.ValidateWebhookURL(path.Child("url"), *cc.URL, true), webhook.ValidateCABundle(path.Child("caBundle"), cc.CABundle)...)
	}
	port := int32(443)
	if cc.Service.Port != nil {
		port = *cc.Service.Port
	}
	return webhook.ValidateWebhookService(path.Child("service"), cc.Service.Namespace, cc.Service.Name, cc.Service.Path, port)
}

func validateRule(r *configv1alpha1.RuleWithOperations, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	ops := make([]string, len(r.Operations))
	for i, op := range r.Operations {
		ops[i] = string(op)
		if !webhookOperations.Has(op) {
			errs = append(errs, field.NotSupported(path.Child("operations").Index(i), op, sets.List(webhookOperations)))
		}
	}
	errs = append(errs, validateWildcardList(ops, path.Child("operations"), false)...)
	errs = append(errs, validateWildcardList(r.APIGroups, path.Child("apiGroups"), true)...)
	errs = append(errs, validateWildcardList(r.APIVersions, path.Child("apiVersions"), false)...)
	errs = append(errs, validateWildcardList(r.Kinds, path.Child("kinds"), false)...)
	return errs
}

// validateWildcardList checks one of a rule's lists: not empty, "*" only
// alone, and no empty item unless emptyOK (the core group is "").
func validateWildcardList(items []string, path *field.Path, emptyOK bool) field.ErrorList {
	if len(items) == 0 {
		return field.ErrorList{field.Required(path, "")}
	}
	var errs field.ErrorList
	for i, item := range items {
		if item == "*" && len(items) > 1 {
			errs = append(errs, field.Invalid(path, items, "if '*' is present, it must be the only item"))
			break
		}
		if item == "" && !emptyOK {
			errs = append(errs, field.Required(path.Index(i), ""))
		}
	}
	return errs
}

func validateContextVersions(versions []string, path *field.Path) field.ErrorList {
	if len(versions) == 0 {
		return field.ErrorList{field.Required(path, fmt.Sprintf("must include at least one of %s", strings.Join(ContextVersions, ", ")))}
	}
	var errs field.ErrorList
	known := false
	for i, v := range versions {
		if v == "" {
			errs = append(errs, field.Required(path.Index(i), ""))
		}
		for _, k := range ContextVersions {
			known = known || v == k
		}
	}
	if !known {
		errs = append(errs, field.Invalid(path, versions, fmt.Sprintf("must include at least one of %s", strings.Join(ContextVersions, ", "))))
	}
	return errs
}
