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
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// maxDNSNameservers is how many nameservers a pod's dnsConfig may list.
const maxDNSNameservers = 3

// podTemplateRules holds what differs between the pod templates of the
// workload kinds.
type podTemplateRules struct {
	// restartPolicies are the pod restart policies the kind accepts.
	restartPolicies []corev1.RestartPolicy
	// allowActiveDeadline says whether the pods may have a deadline; only
	// pods that run to completion may.
	allowActiveDeadline bool
	// extraVolumes are volume names that containers may mount without a
	// matching entry in spec.volumes (a StatefulSet's claim templates).
	extraVolumes sets.Set[string]
}

var (
	// longRunning is the rule set of Deployment, StatefulSet, DaemonSet and
	// ReplicaSet templates.
	longRunning = podTemplateRules{restartPolicies: []corev1.RestartPolicy{corev1.RestartPolicyAlways}}
	// runToCompletion is the rule set of Job templates.
	runToCompletion = podTemplateRules{
		restartPolicies:     []corev1.RestartPolicy{corev1.RestartPolicyOnFailure, corev1.RestartPolicyNever},
		allowActiveDeadline: true,
	}
)

// validatePodTemplateSpec checks a workload's pod template at fldPath.
func validatePodTemplateSpec(t *corev1.PodTemplateSpec, rules podTemplateRules, fldPath *field.Path) field.ErrorList {
	metaPath := fldPath.Child("metadata")
	errs := metav1validation.ValidateLabels(t.Labels, metaPath.Child("labels"))
	errs = append(errs, apivalidation.ValidateAnnotations(t.Annotations, metaPath.Child("annotations"))...)
	return append(errs, validatePodSpec(&t.Spec, rules, fldPath.Child("spec"))...)
}

func validatePodSpec(spec *corev1.PodSpec, rules podTemplateRules, fldPath *field.Path) field.ErrorList {
	volumes, errs := validateVolumes(spec.Volumes, fldPath.Child("volumes"))
	volumes = volumes.Union(rules.extraVolumes)

	if len(spec.Containers) == 0 {
		errs = append(errs, field.Required(fldPath.Child("containers"), "must have at least one container"))
	}
	names := sets.New[string]()
	for i := range spec.InitContainers {
		errs = append(errs, validateContainer(&spec.InitContainers[i], containerContext{
			names: names, volumes: volumes, init: true,
		}, fldPath.Child("initContainers").Index(i))...)
	}
	for i := range spec.Containers {
		errs = append(errs, validateContainer(&spec.Containers[i], containerContext{
			names: names, volumes: volumes,
		}, fldPath.Child("containers").Index(i))...)
	}
	if len(spec.EphemeralContainers) > 0 {
		errs = append(errs, field.Forbidden(fldPath.Child("ephemeralContainers"), "may not be set in a pod template"))
	}

	errs = append(errs, validateEnum(spec.RestartPolicy, fldPath.Child("restartPolicy"), rules.restartPolicies...)...)
	if spec.ActiveDeadlineSeconds != nil {
		if rules.allowActiveDeadline {
			errs = append(errs, validatePositive(*spec.ActiveDeadlineSeconds, fldPath.Child("activeDeadlineSeconds"))...)
		} else {
			errs = append(errs, field.Forbidden(fldPath.Child("activeDeadlineSeconds"), "may not be set for pods that run indefinitely"))
		}
	}
	errs = append(errs, optionalNonNegative(spec.TerminationGracePeriodSeconds, fldPath.Child("terminationGracePeriodSeconds"))...)
	errs = append(errs, validateDNS(spec, fldPath)...)
	errs = append(errs, metav1validation.ValidateLabels(spec.NodeSelector, fldPath.Child("nodeSelector"))...)
	if spec.ServiceAccountName != "" {
		errs = append(errs, validateDNSSubdomain(spec.ServiceAccountName, fldPath.Child("serviceAccountName"))...)
	}
	if spec.DeprecatedServiceAccount != "" && spec.ServiceAccountName != "" && spec.DeprecatedServiceAccount != spec.ServiceAccountName {
		errs = append(errs, field.Invalid(fldPath.Child("serviceAccount"), spec.DeprecatedServiceAccount, "must match serviceAccountName when both are set"))
	}
	if spec.Hostname != "" {
		errs = append(errs, validateDNSLabel(spec.Hostname, fldPath.Child("hostname"))...)
	}
	if spec.Subdomain != "" {
		errs = append(errs, validateDNSLabel(spec.Subdomain, fldPath.Child("subdomain"))...)
	}
	if spec.PriorityClassName != "" {
		errs = append(errs, validateDNSSubdomain(spec.PriorityClassName, fldPath.Child("priorityClassName"))...)
	}
	if spec.NodeName != "" {
		errs = append(errs, validateDNSSubdomain(spec.NodeName, fldPath.Child("nodeName"))...)
	}
	for i, s := range spec.ImagePullSecrets {
		if s.Name == "" {
			errs = append(errs, field.Required(fldPath.Child("imagePullSecrets").Index(i).Child("name"), ""))
		}
	}
	return append(errs, validateTolerations(spec.Tolerations, fldPath.Child("tolerations"))...)
}

// validateDNS checks dnsPolicy and, for policy None, that dnsConfig gives
// the pod at least one nameserver.
func validateDNS(spec *corev1.PodSpec, fldPath *field.Path) field.ErrorList {
	errs := validateEnum(spec.DNSPolicy, fldPath.Child("dnsPolicy"),
		corev1.DNSClusterFirst, corev1.DNSClusterFirstWithHostNet, corev1.DNSDefault, corev1.DNSNone)
	cfgPath := fldPath.Child("dnsConfig")
	if spec.DNSConfig == nil {
		if spec.DNSPolicy == corev1.DNSNone {
			errs = append(errs, field.Required(cfgPath, "must be set when dnsPolicy is None"))
		}
		return errs
	}
	ns := spec.DNSConfig.Nameservers
	if spec.DNSPolicy == corev1.DNSNone && len(ns) == 0 {
		errs = append(errs, field.Required(cfgPath.Child("nameservers"), "must list a nameserver when dnsPolicy is None"))
	}
	if len(ns) > maxDNSNameservers {
		errs = append(errs, field.TooMany(cfgPath.Child("nameservers"), len(ns), maxDNSNameservers))
	}
	for i, ip := range ns {
		if net.ParseIP(ip) == nil {
			errs = append(errs, field.Invalid(cfgPath.Child("nameservers").Index(i), ip, "must be an IP address"))
		}
	}
	return errs
}
