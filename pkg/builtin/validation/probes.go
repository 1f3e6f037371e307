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
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// validateProbe checks a probe that is set: one handler, sane timings, and
// for liveness and startup probes a success threshold of exactly 1 (a
// failing container is restarted, there is nothing to succeed "again").
func validateProbe(p *corev1.Probe, singleSuccess bool, fldPath *field.Path) field.ErrorList {
	if p == nil {
		return nil
	}
	errs := validateOneOf(&p.ProbeHandler, fldPath, "handler")
	errs = append(errs, validateHTTPGet(p.HTTPGet, fldPath.Child("httpGet"))...)
	errs = append(errs, validateTCPSocket(p.TCPSocket, fldPath.Child("tcpSocket"))...)
	if p.GRPC != nil {
		errs = append(errs, validatePortNumber(p.GRPC.Port, fldPath.Child("grpc", "port"))...)
	}
	errs = append(errs, validateNonNegative(int64(p.InitialDelaySeconds), fldPath.Child("initialDelaySeconds"))...)
	errs = append(errs, validateNonNegative(int64(p.TimeoutSeconds), fldPath.Child("timeoutSeconds"))...)
	errs = append(errs, validateNonNegative(int64(p.PeriodSeconds), fldPath.Child("periodSeconds"))...)
	errs = append(errs, validateNonNegative(int64(p.SuccessThreshold), fldPath.Child("successThreshold"))...)
	errs = append(errs, validateNonNegative(int64(p.FailureThreshold), fldPath.Child("failureThreshold"))...)
	if singleSuccess && p.SuccessThreshold != 1 {
		errs = append(errs, field.Invalid(fldPath.Child("successThreshold"), p.SuccessThreshold, "must be 1"))
	}
	if p.TerminationGracePeriodSeconds != nil {
		if !singleSuccess {
			errs = append(errs, field.Invalid(fldPath.Child("terminationGracePeriodSeconds"), *p.TerminationGracePeriodSeconds,
				"may only be set on liveness and startup probes"))
		} else {
			errs = append(errs, validatePositive(*p.TerminationGracePeriodSeconds, fldPath.Child("terminationGracePeriodSeconds"))...)
		}
	}
	return errs
}

// validateLifecycleHandler checks a postStart or preStop hook that is set.
func validateLifecycleHandler(h *corev1.LifecycleHandler, fldPath *field.Path) field.ErrorList {
	if h == nil {
		return nil
	}
	errs := validateOneOf(h, fldPath, "handler")
	errs = append(errs, validateHTTPGet(h.HTTPGet, fldPath.Child("httpGet"))...)
	errs = append(errs, validateTCPSocket(h.TCPSocket, fldPath.Child("tcpSocket"))...)
	if h.Sleep != nil {
		errs = append(errs, validateNonNegative(h.Sleep.Seconds, fldPath.Child("sleep", "seconds"))...)
	}
	return errs
}

func validateHTTPGet(a *corev1.HTTPGetAction, fldPath *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	errs := validateNamedPort(a.Port, fldPath.Child("port"))
	errs = append(errs, validateEnum(a.Scheme, fldPath.Child("scheme"), corev1.URISchemeHTTP, corev1.URISchemeHTTPS)...)
	for i, h := range a.HTTPHeaders {
		errs = append(errs, messages(fldPath.Child("httpHeaders").Index(i).Child("name"), h.Name, utilvalidation.IsHTTPHeaderName(h.Name))...)
	}
	return errs
}

func validateTCPSocket(a *corev1.TCPSocketAction, fldPath *field.Path) field.ErrorList {
	if a == nil {
		return nil
	}
	return validateNamedPort(a.Port, fldPath.Child("port"))
}

// validateTolerations checks that each toleration is one a scheduler can
// match against a taint.
func validateTolerations(tolerations []corev1.Toleration, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	for i, t := range tolerations {
		idx := fldPath.Index(i)
		if t.Key != "" {
			errs = append(errs, validateQualifiedName(t.Key, idx.Child("key"))...)
		}
		switch t.Operator {
		case corev1.TolerationOpExists:
			if t.Value != "" {
				errs = append(errs, field.Invalid(idx.Child("value"), t.Value, "must be empty when `operator` is 'Exists'"))
			}
		case "", corev1.TolerationOpEqual, corev1.TolerationOpLt, corev1.TolerationOpGt:
			if t.Key == "" {
				errs = append(errs, field.Invalid(idx.Child("operator"), t.Operator, "must be 'Exists' when `key` is empty"))
			}
			errs = append(errs, messages(idx.Child("value"), t.Value, utilvalidation.IsValidLabelValue(t.Value))...)
		default:
			errs = append(errs, field.NotSupported(idx.Child("operator"), t.Operator, []corev1.TolerationOperator{
				corev1.TolerationOpEqual, corev1.TolerationOpExists, corev1.TolerationOpLt, corev1.TolerationOpGt}))
		}
		errs = append(errs, validateOptionalEnum(t.Effect, idx.Child("effect"),
			corev1.TaintEffectNoSchedule, corev1.TaintEffectPreferNoSchedule, corev1.TaintEffectNoExecute)...)
		if t.TolerationSeconds != nil && t.Effect != corev1.TaintEffectNoExecute {
			errs = append(errs, field.Invalid(idx.Child("effect"), t.Effect, "must be 'NoExecute' when `tolerationSeconds` is set"))
		}
	}
	return errs
}
