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
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"

	"github.com/mco-org/mco/pkg/builtin/defaults"
)

func validService() *corev1.Service {
	svc := &corev1.Service{ObjectMeta: objectMeta("web"), Spec: corev1.ServiceSpec{
		Selector: map[string]string{"app": "web"},
		Ports: []corev1.ServicePort{
			{Name: "http", Port: 80, TargetPort: intstr.FromString("http")},
			{Name: "https", Port: 443, TargetPort: intstr.FromInt32(8443)},
		},
	}}
	defaults.Service(svc)
	return svc
}

// asType turns svc into a defaulted Service of type typ.
func asType(typ corev1.ServiceType) func(*corev1.Service) {
	return func(svc *corev1.Service) {
		svc.Spec.Type = typ
		defaults.Service(svc)
	}
}

func TestValidateService(t *testing.T) {
	t.Parallel()
	runCases(t, validService, ValidateService, []testCase[*corev1.Service]{
		{name: "A defaulted ClusterIP service with two named ports is valid.", mutate: noChange[*corev1.Service]},
		{name: "A service name starting with a digit is not a DNS-1035 label.", mutate: func(svc *corev1.Service) { svc.Name = "1web" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "A dotted service name is invalid.", mutate: func(svc *corev1.Service) { svc.Name = "web.v2" },
			want: []wantErr{invalid("metadata.name")}},
		{name: "A service without a namespace is rejected.", mutate: func(svc *corev1.Service) { svc.Namespace = "" },
			want: []wantErr{required("metadata.namespace")}},
		{name: "An unknown type is not supported.", mutate: func(svc *corev1.Service) { svc.Spec.Type = "Ingress" },
			want: []wantErr{notSupported("spec.type")}},
		{name: "A ClusterIP service without ports is missing them.", mutate: func(svc *corev1.Service) { svc.Spec.Ports = nil },
			want: []wantErr{required("spec.ports")}},
		{name: "A headless service needs no ports.", mutate: func(svc *corev1.Service) {
			svc.Spec.Ports, svc.Spec.ClusterIP = nil, "None"
		}},
		{name: "A single unnamed port is valid.", mutate: func(svc *corev1.Service) {
			svc.Spec.Ports = []corev1.ServicePort{{Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(80)}}
		}},
		{name: "With several ports each needs a name, unique and a DNS label.", mutate: func(svc *corev1.Service) {
			svc.Spec.Ports[0].Name = ""
			svc.Spec.Ports = append(svc.Spec.Ports,
				corev1.ServicePort{Name: "https", Port: 8443, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8443)},
				corev1.ServicePort{Name: "Metrics", Port: 9090, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(9090)})
		}, want: []wantErr{required("spec.ports[0].name"), duplicate("spec.ports[2].name"), invalid("spec.ports[3].name")}},
		{name: "Bad port numbers, protocols, target ports and app protocols are reported per port.", mutate: func(svc *corev1.Service) {
			svc.Spec.Ports[0].Port, svc.Spec.Ports[0].TargetPort = 0, intstr.FromString("not_a_name")
			svc.Spec.Ports[1].Protocol, svc.Spec.Ports[1].TargetPort = "ICMP", intstr.FromInt32(70000)
			svc.Spec.Ports[1].AppProtocol = ptr.To("bad protocol")
		}, want: []wantErr{
			invalid("spec.ports[0].port"), invalid("spec.ports[0].targetPort"),
			notSupported("spec.ports[1].protocol"), invalid("spec.ports[1].targetPort"), invalid("spec.ports[1].appProtocol"),
		}},
		{name: "The same port and protocol twice is a duplicate, the same port over UDP is not.", mutate: func(svc *corev1.Service) {
			svc.Spec.Ports = append(svc.Spec.Ports,
				corev1.ServicePort{Name: "http-udp", Port: 80, Protocol: corev1.ProtocolUDP, TargetPort: intstr.FromInt32(80)},
				corev1.ServicePort{Name: "http-again", Port: 80, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(80)})
		}, want: []wantErr{duplicate("spec.ports[3]")}},
		{name: "A node port on a ClusterIP service is forbidden.", mutate: func(svc *corev1.Service) { svc.Spec.Ports[0].NodePort = 30080 },
			want: []wantErr{forbidden("spec.ports[0].nodePort")}},
		{name: "A NodePort service with chosen node ports is valid.", mutate: func(svc *corev1.Service) {
			asType(corev1.ServiceTypeNodePort)(svc)
			svc.Spec.Ports[0].NodePort, svc.Spec.Ports[1].NodePort = 30080, 30443
		}},
		{name: "A node port used twice or out of range is reported.", mutate: func(svc *corev1.Service) {
			asType(corev1.ServiceTypeNodePort)(svc)
			svc.Spec.Ports[0].NodePort, svc.Spec.Ports[1].NodePort = 30080, 30080
			svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: "x", Port: 81, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(81), NodePort: 70000})
		}, want: []wantErr{duplicate("spec.ports[1].nodePort"), invalid("spec.ports[2].nodePort")}},
		{name: "A selector value that is not a label value is invalid.", mutate: func(svc *corev1.Service) { svc.Spec.Selector["app"] = "a b" },
			want: []wantErr{invalid("spec.selector")}},
		{name: "An external IP that is not an IP is invalid.", mutate: func(svc *corev1.Service) {
			svc.Spec.ExternalIPs = []string{"192.0.2.10", "example.com"}
			svc.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
		}, want: []wantErr{invalid("spec.externalIPs[1]")}},
	})
}

func TestValidateServiceTypes(t *testing.T) {
	t.Parallel()
	runCases(t, validService, ValidateService, []testCase[*corev1.Service]{
		{name: "An ExternalName service pointing at a DNS name with a trailing dot is valid.", mutate: func(svc *corev1.Service) {
			svc.Spec.ExternalName = "db.example.com."
			svc.Spec.InternalTrafficPolicy = nil
			asType(corev1.ServiceTypeExternalName)(svc)
		}},
		{name: "An ExternalName service without a name or with a cluster IP is rejected.", mutate: func(svc *corev1.Service) {
			svc.Spec.ClusterIP, svc.Spec.ClusterIPs = "10.0.0.1", []string{"10.0.0.1"}
			asType(corev1.ServiceTypeExternalName)(svc)
		}, want: []wantErr{required("spec.externalName"), forbidden("spec.clusterIP"), forbidden("spec.clusterIPs")}},
		{name: "An ExternalName that is not a DNS name is invalid.", mutate: func(svc *corev1.Service) {
			svc.Spec.ExternalName = "db_example"
			asType(corev1.ServiceTypeExternalName)(svc)
		}, want: []wantErr{invalid("spec.externalName")}},
		{name: "A LoadBalancer service with a class, source ranges and a local policy with health check port is valid.", mutate: func(svc *corev1.Service) {
			asType(corev1.ServiceTypeLoadBalancer)(svc)
			svc.Spec.LoadBalancerClass = ptr.To("example.com/lb")
			svc.Spec.LoadBalancerSourceRanges = []string{"10.0.0.0/8"}
			svc.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
			svc.Spec.HealthCheckNodePort = 32000
		}},
		{name: "Load balancer fields on a ClusterIP service are forbidden.", mutate: func(svc *corev1.Service) {
			svc.Spec.LoadBalancerClass = ptr.To("example.com/lb")
			svc.Spec.LoadBalancerSourceRanges = []string{"10.0.0.0/8"}
			svc.Spec.AllocateLoadBalancerNodePorts = ptr.To(true)
			svc.Spec.HealthCheckNodePort = 32000
		}, want: []wantErr{
			forbidden("spec.loadBalancerClass"), forbidden("spec.loadBalancerSourceRanges"),
			forbidden("spec.allocateLoadBalancerNodePorts"), forbidden("spec.healthCheckNodePort"),
		}},
		{name: "A source range that is not a CIDR and a class that is not a qualified name are invalid.", mutate: func(svc *corev1.Service) {
			asType(corev1.ServiceTypeLoadBalancer)(svc)
			svc.Spec.LoadBalancerSourceRanges = []string{"10.0.0.0"}
			svc.Spec.LoadBalancerClass = ptr.To("bad class")
		}, want: []wantErr{invalid("spec.loadBalancerSourceRanges[0]"), invalid("spec.loadBalancerClass")}},
		{name: "An external traffic policy on an internal service is forbidden.", mutate: func(svc *corev1.Service) {
			svc.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
		}, want: []wantErr{forbidden("spec.externalTrafficPolicy")}},
		{name: "A NodePort service needs a known external traffic policy.", mutate: func(svc *corev1.Service) {
			asType(corev1.ServiceTypeNodePort)(svc)
			svc.Spec.ExternalTrafficPolicy = "Global"
		}, want: []wantErr{notSupported("spec.externalTrafficPolicy")}},
		{name: "An unknown internal traffic policy is not supported.", mutate: func(svc *corev1.Service) {
			svc.Spec.InternalTrafficPolicy = ptr.To[corev1.ServiceInternalTrafficPolicy]("Node")
		}, want: []wantErr{notSupported("spec.internalTrafficPolicy")}},
	})
}

func TestValidateServiceAddressing(t *testing.T) {
	t.Parallel()
	runCases(t, validService, ValidateService, []testCase[*corev1.Service]{
		{name: "A chosen dual-stack cluster IP pair is valid.", mutate: func(svc *corev1.Service) {
			svc.Spec.ClusterIP, svc.Spec.ClusterIPs = "10.0.0.10", []string{"10.0.0.10", "fd00::10"}
			svc.Spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicyRequireDualStack)
			svc.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv6Protocol}
		}},
		{name: "A cluster IP that is not an IP and a mismatching first clusterIPs entry are invalid.", mutate: func(svc *corev1.Service) {
			svc.Spec.ClusterIP, svc.Spec.ClusterIPs = "10.0.0", []string{"10.0.0.11", "nope"}
		}, want: []wantErr{invalid("spec.clusterIP"), invalid("spec.clusterIPs[0]"), invalid("spec.clusterIPs[1]")}},
		{name: "Three cluster IPs are too many.", mutate: func(svc *corev1.Service) {
			svc.Spec.ClusterIPs = []string{"10.0.0.1", "fd00::1", "10.0.0.2"}
		}, want: []wantErr{fe(field.ErrorTypeTooMany, "spec.clusterIPs")}},
		{name: "A headless NodePort service is invalid.", mutate: func(svc *corev1.Service) {
			asType(corev1.ServiceTypeNodePort)(svc)
			svc.Spec.ClusterIP = "None"
		}, want: []wantErr{invalid("spec.clusterIP")}},
		{name: "Unknown IP family policies and families, and a repeated family, are reported.", mutate: func(svc *corev1.Service) {
			svc.Spec.IPFamilyPolicy = ptr.To[corev1.IPFamilyPolicy]("DualStack")
			svc.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv4Protocol, corev1.IPv4Protocol, "IPv5"}
		}, want: []wantErr{
			notSupported("spec.ipFamilyPolicy"), duplicate("spec.ipFamilies[1]"),
			notSupported("spec.ipFamilies[2]"), fe(field.ErrorTypeTooMany, "spec.ipFamilies"),
		}},
		{name: "ClientIP affinity with a one hour timeout is valid.", mutate: func(svc *corev1.Service) {
			svc.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
			svc.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr.To[int32](3600)}}
		}},
		{name: "ClientIP affinity without a timeout is missing it.", mutate: func(svc *corev1.Service) {
			svc.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
		}, want: []wantErr{required("spec.sessionAffinityConfig.clientIP.timeoutSeconds")}},
		{name: "A timeout longer than a day is invalid.", mutate: func(svc *corev1.Service) {
			svc.Spec.SessionAffinity = corev1.ServiceAffinityClientIP
			svc.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{ClientIP: &corev1.ClientIPConfig{TimeoutSeconds: ptr.To[int32](86401)}}
		}, want: []wantErr{invalid("spec.sessionAffinityConfig.clientIP.timeoutSeconds")}},
		{name: "An affinity configuration without ClientIP affinity is forbidden.", mutate: func(svc *corev1.Service) {
			svc.Spec.SessionAffinityConfig = &corev1.SessionAffinityConfig{}
		}, want: []wantErr{forbidden("spec.sessionAffinityConfig")}},
		{name: "An unknown session affinity is not supported.", mutate: func(svc *corev1.Service) { svc.Spec.SessionAffinity = "Cookie" },
			want: []wantErr{notSupported("spec.sessionAffinity")}},
	})
}

func TestValidateServiceUpdate(t *testing.T) {
	t.Parallel()
	withIP := func() *corev1.Service {
		svc := validService()
		svc.Spec.ClusterIP = "10.0.0.10"
		return svc
	}
	runUpdateCases(t, withIP, ValidateServiceUpdate, []updateCase[*corev1.Service]{
		{name: "Adding a port is a valid update.", mutate: func(svc, _ *corev1.Service) {
			svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: "m", Port: 9090, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(9090)})
		}},
		{name: "Changing a chosen cluster IP is invalid.", mutate: func(svc, _ *corev1.Service) { svc.Spec.ClusterIP = "10.0.0.11" },
			want: []wantErr{invalid("spec.clusterIP")}},
		{name: "Turning the service into an ExternalName one drops the cluster IP validly.", mutate: func(svc, _ *corev1.Service) {
			svc.Spec = corev1.ServiceSpec{Type: corev1.ServiceTypeExternalName, ExternalName: "db.example.com", SessionAffinity: corev1.ServiceAffinityNone}
		}},
	})
	runUpdateCases(t, validService, ValidateServiceUpdate, []updateCase[*corev1.Service]{
		{name: "Choosing a cluster IP where none was given is valid.", mutate: func(svc, _ *corev1.Service) { svc.Spec.ClusterIP = "10.0.0.12" }},
	})
}
