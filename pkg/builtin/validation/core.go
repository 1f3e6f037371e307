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

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ValidateNamespace checks a new Namespace. Its name is a DNS label, since it
// becomes part of DNS names of the Services inside it.
func ValidateNamespace(ns *corev1.Namespace) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&ns.ObjectMeta, false, apivalidation.ValidateNamespaceName, metadataPath)
	return append(errs, validateNamespaceBody(ns)...)
}

// ValidateNamespaceUpdate checks an update of a Namespace.
func ValidateNamespaceUpdate(ns, old *corev1.Namespace) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&ns.ObjectMeta, &old.ObjectMeta, metadataPath)
	return append(errs, validateNamespaceBody(ns)...)
}

// validateNamespaceBody checks spec.finalizers, whose unqualified names are
// reserved for Kubernetes, and status.phase.
func validateNamespaceBody(ns *corev1.Namespace) field.ErrorList {
	var errs field.ErrorList
	for i, f := range ns.Spec.Finalizers {
		p := field.NewPath("spec", "finalizers").Index(i)
		name := string(f)
		errs = append(errs, validateQualifiedName(name, p)...)
		if !strings.Contains(name, "/") && f != corev1.FinalizerKubernetes {
			errs = append(errs, field.Invalid(p, name, "a name without a domain prefix must be 'kubernetes'"))
		}
	}
	return append(errs, validateOptionalEnum(ns.Status.Phase, field.NewPath("status", "phase"),
		corev1.NamespaceActive, corev1.NamespaceTerminating)...)
}

// ValidateServiceAccount checks a new ServiceAccount.
func ValidateServiceAccount(sa *corev1.ServiceAccount) field.ErrorList {
	return apivalidation.ValidateObjectMeta(&sa.ObjectMeta, true, apivalidation.ValidateServiceAccountName, metadataPath)
}

// ValidateServiceAccountUpdate checks an update of a ServiceAccount.
func ValidateServiceAccountUpdate(sa, old *corev1.ServiceAccount) field.ErrorList {
	return apivalidation.ValidateObjectMetaUpdate(&sa.ObjectMeta, &old.ObjectMeta, metadataPath)
}

// ValidateEvent checks a new Event: it must say what object it is about, and
// an event about a namespaced object lives in that object's namespace.
func ValidateEvent(e *corev1.Event) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&e.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateEventBody(e)...)
}

// ValidateEventUpdate checks an update of an Event; the object it is about
// cannot change.
func ValidateEventUpdate(e, old *corev1.Event) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&e.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateEventBody(e)...)
	return append(errs, immutable(e.InvolvedObject, old.InvolvedObject, field.NewPath("involvedObject"))...)
}

func validateEventBody(e *corev1.Event) field.ErrorList {
	var errs field.ErrorList
	obj := field.NewPath("involvedObject")
	if e.InvolvedObject.Kind == "" {
		errs = append(errs, field.Required(obj.Child("kind"), ""))
	}
	if e.InvolvedObject.Name == "" {
		errs = append(errs, field.Required(obj.Child("name"), ""))
	}
	if ns := e.InvolvedObject.Namespace; ns != "" && ns != e.Namespace {
		errs = append(errs, field.Invalid(obj.Child("namespace"), ns, "does not match event.namespace"))
	}
	return append(errs, validateNonNegative(int64(e.Count), field.NewPath("count"))...)
}

// ValidateLease checks a new Lease.
func ValidateLease(l *coordinationv1.Lease) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&l.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, metadataPath)
	return append(errs, validateLeaseSpec(&l.Spec, specPath)...)
}

// ValidateLeaseUpdate checks an update of a Lease.
func ValidateLeaseUpdate(l, old *coordinationv1.Lease) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&l.ObjectMeta, &old.ObjectMeta, metadataPath)
	return append(errs, validateLeaseSpec(&l.Spec, specPath)...)
}

func validateLeaseSpec(s *coordinationv1.LeaseSpec, fldPath *field.Path) field.ErrorList {
	errs := optionalPositive(s.LeaseDurationSeconds, fldPath.Child("leaseDurationSeconds"))
	errs = append(errs, optionalNonNegative(s.LeaseTransitions, fldPath.Child("leaseTransitions"))...)
	if s.Strategy != nil {
		errs = append(errs, validateEnum(*s.Strategy, fldPath.Child("strategy"), coordinationv1.OldestEmulationVersion)...)
	}
	if s.PreferredHolder != nil && *s.PreferredHolder != "" && (s.Strategy == nil || *s.Strategy == "") {
		errs = append(errs, field.Forbidden(fldPath.Child("preferredHolder"), "may only be set when `strategy` is set"))
	}
	return errs
}
