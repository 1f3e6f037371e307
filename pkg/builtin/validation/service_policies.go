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
	"net"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	"github.com/mco-org/mco/pkg/builtin/defaults"
)

// maxIPFamilies is how many IP families a dual-stack Service has.
const maxIPFamilies = 2

// validateClusterIPs checks clusterIP and clusterIPs as written by the user:
// mco allocates none, so they are either unset, "None", or IP addresses the
// member clusters are asked to use.
func validateClusterIPs(s *corev1.ServiceSpec, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	ipPath, ipsPath := fldPath.Child("clusterIP"), fldPath.Child("clusterIPs")
	if s.Type == corev1.ServiceTypeExternalName {
		if s.ClusterIP != "" {
			errs = append(errs, field.Forbidden(ipPath, "may not be set when `type` is 'ExternalName'"))
		}
		if len(s.ClusterIPs) > 0 {
			errs = append(errs, field.Forbidden(ipsPath, "may not be set when `type` is 'ExternalName'"))
		}
		return errs
	}
	if s.ClusterIP != "" && s.ClusterIP != headless && net.ParseIP(s.ClusterIP) == nil {
		errs = append(errs, field.Invalid(ipPath, s.ClusterIP, "must be empty, 'None', or an IP address"))
	}
	if s.ClusterIP == headless && (s.Type == corev1.ServiceTypeNodePort || s.Type == corev1.ServiceTypeLoadBalancer) {
		errs = append(errs, field.Invalid(ipPath, s.ClusterIP, "may not be 'None' when `type` is 'NodePort' or 'LoadBalancer'"))
	}
	if len(s.ClusterIPs) > 0 && s.ClusterIP != "" && s.ClusterIPs[0] != s.ClusterIP {
		errs = append(errs, field.Invalid(ipsPath.Index(0), s.ClusterIPs[0], "must match `clusterIP`"))
	}
	if len(s.ClusterIPs) > maxIPFamilies {
		errs = append(errs, field.TooMany(ipsPath, len(s.ClusterIPs), maxIPFamilies))
	}
	for i, ip := range s.ClusterIPs {
		if i == 0 && ip == headless {
			continue
		}
		if net.ParseIP(ip) == nil {
			errs = append(errs, field.Invalid(ipsPath.Index(i), ip, "must be an IP address"))
		}
	}

	if s.IPFamilyPolicy != nil {
		errs = append(errs, validateEnum(*s.IPFamilyPolicy, fldPath.Child("ipFamilyPolicy"), corev1.IPFamilyPolicySingleStack,
			corev1.IPFamilyPolicyPreferDualStack, corev1.IPFamilyPolicyRequireDualStack)...)
	}
	famPath := fldPath.Child("ipFamilies")
	if len(s.IPFamilies) > maxIPFamilies {
		errs = append(errs, field.TooMany(famPath, len(s.IPFamilies), maxIPFamilies))
	}
	for i, f := range s.IPFamilies {
		errs = append(errs, validateEnum(f, famPath.Index(i), corev1.IPv4Protocol, corev1.IPv6Protocol)...)
		if i > 0 && f == s.IPFamilies[0] {
			errs = append(errs, field.Duplicate(famPath.Index(i), f))
		}
	}
	return errs
}

// validateSessionAffinity checks the affinity and that its configuration is
// given only for ClientIP affinity.
func validateSessionAffinity(s *corev1.ServiceSpec, fldPath *field.Path) field.ErrorList {
	errs := validateEnum(s.SessionAffinity, fldPath.Child("sessionAffinity"),
		corev1.ServiceAffinityNone, corev1.ServiceAffinityClientIP)
	cfgPath := fldPath.Child("sessionAffinityConfig")
	if s.SessionAffinity != corev1.ServiceAffinityClientIP {
		if s.SessionAffinityConfig != nil {
			errs = append(errs, field.Forbidden(cfgPath, "may only be set when `sessionAffinity` is 'ClientIP'"))
		}
		return errs
	}
	timeoutPath := cfgPath.Child("clientIP", "timeoutSeconds")
	if s.SessionAffinityConfig == nil || s.SessionAffinityConfig.ClientIP == nil || s.SessionAffinityConfig.ClientIP.TimeoutSeconds == nil {
		return append(errs, field.Required(timeoutPath, ""))
	}
	if t := *s.SessionAffinityConfig.ClientIP.TimeoutSeconds; t <= 0 || t > maxSessionAffinityTimeout {
		errs = append(errs, field.Invalid(timeoutPath, t, "must be greater than 0 and at most 86400 (one day)"))
	}
	return errs
}

// validateTrafficPolicies checks externalTrafficPolicy, which only Services
// reachable from outside the cluster take, and internalTrafficPolicy.
func validateTrafficPolicies(svc *corev1.Service, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	s := &svc.Spec
	etpPath := fldPath.Child("externalTrafficPolicy")
	policies := []corev1.ServiceExternalTrafficPolicy{
		corev1.ServiceExternalTrafficPolicyCluster, corev1.ServiceExternalTrafficPolicyLocal}
	if defaults.ExternallyAccessible(svc) {
		errs = append(errs, validateEnum(s.ExternalTrafficPolicy, etpPath, policies...)...)
	} else if s.ExternalTrafficPolicy != "" {
		errs = append(errs, field.Forbidden(etpPath, "may only be set for a NodePort or LoadBalancer Service or one with externalIPs"))
	}
	if s.InternalTrafficPolicy != nil {
		errs = append(errs, validateEnum(*s.InternalTrafficPolicy, fldPath.Child("internalTrafficPolicy"),
			corev1.ServiceInternalTrafficPolicyCluster, corev1.ServiceInternalTrafficPolicyLocal)...)
	}
	return errs
}
