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
	"net"
	"strings"

	corev1 "k8s.io/api/core/v1"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

const (
	// headless is the clusterIP of a Service that gets no virtual IP.
	headless = "None"
	// maxSessionAffinityTimeout is the longest ClientIP affinity, one day.
	maxSessionAffinityTimeout = 24 * 60 * 60
)

// ValidateService checks a new Service. Its name is a DNS-1035 label: it
// becomes a DNS name and, in environment variables, must not start with a
// digit.
func ValidateService(svc *corev1.Service) field.ErrorList {
	errs := apivalidation.ValidateObjectMeta(&svc.ObjectMeta, true, apivalidation.NameIsDNS1035Label, metadataPath)
	return append(errs, validateServiceSpec(svc, specPath)...)
}

// ValidateServiceUpdate checks an update of a Service: the new object in
// full, and that a cluster IP given before is kept unless the Service turns
// into or out of an ExternalName one.
func ValidateServiceUpdate(svc, old *corev1.Service) field.ErrorList {
	errs := apivalidation.ValidateObjectMetaUpdate(&svc.ObjectMeta, &old.ObjectMeta, metadataPath)
	errs = append(errs, validateServiceSpec(svc, specPath)...)
	external := svc.Spec.Type == corev1.ServiceTypeExternalName || old.Spec.Type == corev1.ServiceTypeExternalName
	if old.Spec.ClusterIP != "" && !external {
		errs = append(errs, immutable(svc.Spec.ClusterIP, old.Spec.ClusterIP, specPath.Child("clusterIP"))...)
	}
	return errs
}

func isHeadless(s *corev1.ServiceSpec) bool {
	return s.ClusterIP == headless || (len(s.ClusterIPs) > 0 && s.ClusterIPs[0] == headless)
}

func validateServiceSpec(svc *corev1.Service, fldPath *field.Path) field.ErrorList {
	s := &svc.Spec
	errs := validateEnum(s.Type, fldPath.Child("type"), corev1.ServiceTypeClusterIP, corev1.ServiceTypeNodePort,
		corev1.ServiceTypeLoadBalancer, corev1.ServiceTypeExternalName)
	external := s.Type == corev1.ServiceTypeExternalName
	withNodePorts := s.Type == corev1.ServiceTypeNodePort || s.Type == corev1.ServiceTypeLoadBalancer
	lb := s.Type == corev1.ServiceTypeLoadBalancer

	if len(s.Ports) == 0 && !external && !isHeadless(s) {
		errs = append(errs, field.Required(fldPath.Child("ports"), ""))
	}
	errs = append(errs, validateServicePorts(s.Ports, withNodePorts, fldPath.Child("ports"))...)
	errs = append(errs, validateClusterIPs(s, fldPath)...)

	if external {
		p := fldPath.Child("externalName")
		if s.ExternalName == "" {
			errs = append(errs, field.Required(p, ""))
		} else {
			errs = append(errs, validateDNSSubdomain(strings.TrimSuffix(s.ExternalName, "."), p)...)
		}
	}
	errs = append(errs, metav1validation.ValidateLabels(s.Selector, fldPath.Child("selector"))...)
	for i, ip := range s.ExternalIPs {
		if net.ParseIP(ip) == nil {
			errs = append(errs, field.Invalid(fldPath.Child("externalIPs").Index(i), ip, "must be an IP address"))
		}
	}
	errs = append(errs, validateSessionAffinity(s, fldPath)...)
	errs = append(errs, validateTrafficPolicies(svc, fldPath)...)

	if s.HealthCheckNodePort != 0 {
		p := fldPath.Child("healthCheckNodePort")
		if !lb || s.ExternalTrafficPolicy != corev1.ServiceExternalTrafficPolicyLocal {
			errs = append(errs, field.Forbidden(p, "may only be set when `type` is 'LoadBalancer' and `externalTrafficPolicy` is 'Local'"))
		} else {
			errs = append(errs, validatePortNumber(s.HealthCheckNodePort, p)...)
		}
	}
	if !lb {
		for _, f := range []struct {
			name string
			set  bool
		}{
			{"loadBalancerSourceRanges", len(s.LoadBalancerSourceRanges) > 0},
			{"loadBalancerClass", s.LoadBalancerClass != nil},
			{"allocateLoadBalancerNodePorts", s.AllocateLoadBalancerNodePorts != nil},
		} {
			if f.set {
				errs = append(errs, field.Forbidden(fldPath.Child(f.name), "may only be used when `type` is 'LoadBalancer'"))
			}
		}
	}
	for i, cidr := range s.LoadBalancerSourceRanges {
		if _, _, err := net.ParseCIDR(strings.TrimSpace(cidr)); err != nil {
			errs = append(errs, field.Invalid(fldPath.Child("loadBalancerSourceRanges").Index(i), cidr, "must be a CIDR, e.g. 10.0.0.0/8"))
		}
	}
	if lb && s.LoadBalancerClass != nil {
		errs = append(errs, validateQualifiedName(*s.LoadBalancerClass, fldPath.Child("loadBalancerClass"))...)
	}
	return errs
}

// validateServicePorts checks the ports: each a valid number and protocol,
// named when there are several, unique by name and by port and protocol,
// and with node ports only where the type allocates them.
func validateServicePorts(ports []corev1.ServicePort, withNodePorts bool, fldPath *field.Path) field.ErrorList {
	var errs field.ErrorList
	names := sets.New[string]()
	type portKey struct {
		port     int32
		protocol corev1.Protocol
	}
	seen, seenNode := sets.New[portKey](), sets.New[portKey]()
	for i, p := range ports {
		idx := fldPath.Index(i)
		switch {
		case p.Name == "" && len(ports) > 1:
			errs = append(errs, field.Required(idx.Child("name"), "must be set when there is more than one port"))
		case p.Name == "":
		case names.Has(p.Name):
			errs = append(errs, field.Duplicate(idx.Child("name"), p.Name))
		default:
			errs = append(errs, validateDNSLabel(p.Name, idx.Child("name"))...)
		}
		names.Insert(p.Name)

		errs = append(errs, validatePortNumber(p.Port, idx.Child("port"))...)
		errs = append(errs, validateProtocol(p.Protocol, idx.Child("protocol"))...)
		errs = append(errs, validateNamedPort(p.TargetPort, idx.Child("targetPort"))...)
		if p.AppProtocol != nil {
			errs = append(errs, validateQualifiedName(*p.AppProtocol, idx.Child("appProtocol"))...)
		}
		key := portKey{p.Port, p.Protocol}
		if seen.Has(key) {
			errs = append(errs, field.Duplicate(idx, fmt.Sprintf("%d/%s", p.Port, p.Protocol)))
		}
		seen.Insert(key)

		if p.NodePort == 0 {
			continue
		}
		nodePath := idx.Child("nodePort")
		if !withNodePorts {
			errs = append(errs, field.Forbidden(nodePath, "may only be set when `type` is 'NodePort' or 'LoadBalancer'"))
			continue
		}
		errs = append(errs, validatePortNumber(p.NodePort, nodePath)...)
		nodeKey := portKey{p.NodePort, p.Protocol}
		if seenNode.Has(nodeKey) {
			errs = append(errs, field.Duplicate(nodePath, p.NodePort))
		}
		seenNode.Insert(nodeKey)
	}
	return errs
}
