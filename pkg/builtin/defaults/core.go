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

package defaults

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

// Namespace defaults a Namespace: it is labelled with its own name under
// kubernetes.io/metadata.name, its spec.finalizers is ["kubernetes"] when
// empty and its phase is Active when unset.
//
// The finalizer is only added to a namespace that is not being deleted: the
// list is emptied on purpose at the end of a deletion, and defaulting runs
// again on every later write and read of the object.
func Namespace(ns *corev1.Namespace) {
	if ns.Name != "" {
		if ns.Labels == nil {
			ns.Labels = map[string]string{}
		}
		ns.Labels[corev1.LabelMetadataName] = ns.Name
	}
	if len(ns.Spec.Finalizers) == 0 && ns.DeletionTimestamp == nil {
		ns.Spec.Finalizers = []corev1.FinalizerName{corev1.FinalizerKubernetes}
	}
	if ns.Status.Phase == "" {
		ns.Status.Phase = corev1.NamespaceActive
	}
}

// Secret defaults a Secret to type Opaque and folds the write-only stringData
// into data (a stringData key wins over the same data key), the way a cluster
// stores it.
func Secret(s *corev1.Secret) {
	if s.Type == "" {
		s.Type = corev1.SecretTypeOpaque
	}
	if len(s.StringData) > 0 {
		if s.Data == nil {
			s.Data = make(map[string][]byte, len(s.StringData))
		}
		for k, v := range s.StringData {
			s.Data[k] = []byte(v)
		}
	}
	s.StringData = nil
}

// Service defaults a Service. No cluster IP or node port is allocated: on mco
// a Service is a template, and allocation happens in the member clusters.
func Service(svc *corev1.Service) {
	s := &svc.Spec
	if s.Type == "" {
		s.Type = corev1.ServiceTypeClusterIP
	}
	if s.SessionAffinity == "" {
		s.SessionAffinity = corev1.ServiceAffinityNone
	}
	if s.SessionAffinity == corev1.ServiceAffinityClientIP {
		if s.SessionAffinityConfig == nil {
			s.SessionAffinityConfig = &corev1.SessionAffinityConfig{}
		}
		if s.SessionAffinityConfig.ClientIP == nil {
			s.SessionAffinityConfig.ClientIP = &corev1.ClientIPConfig{}
		}
		if s.SessionAffinityConfig.ClientIP.TimeoutSeconds == nil {
			s.SessionAffinityConfig.ClientIP.TimeoutSeconds = ptr.To(corev1.DefaultClientIPServiceAffinitySeconds)
		}
	}
	for i := range s.Ports {
		p := &s.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		if p.TargetPort == (intstr.IntOrString{}) {
			p.TargetPort = intstr.FromInt32(p.Port)
		}
	}
	if ExternallyAccessible(svc) && s.ExternalTrafficPolicy == "" {
		s.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyCluster
	}
	if s.InternalTrafficPolicy == nil && s.Type != corev1.ServiceTypeExternalName {
		s.InternalTrafficPolicy = ptr.To(corev1.ServiceInternalTrafficPolicyCluster)
	}
	if s.Type == corev1.ServiceTypeLoadBalancer && s.AllocateLoadBalancerNodePorts == nil {
		s.AllocateLoadBalancerNodePorts = ptr.To(true)
	}
}

// ExternallyAccessible reports whether traffic can reach svc from outside the
// cluster: a NodePort or LoadBalancer Service, or a ClusterIP Service with
// external IPs. Only those take an externalTrafficPolicy.
func ExternallyAccessible(svc *corev1.Service) bool {
	switch svc.Spec.Type {
	case corev1.ServiceTypeNodePort, corev1.ServiceTypeLoadBalancer:
		return true
	case corev1.ServiceTypeClusterIP:
		return len(svc.Spec.ExternalIPs) > 0
	}
	return false
}

// PersistentVolumeClaim defaults a claim to a filesystem volume and a Pending
// phase.
func PersistentVolumeClaim(pvc *corev1.PersistentVolumeClaim) {
	persistentVolumeClaimSpec(&pvc.Spec)
	if pvc.Status.Phase == "" {
		pvc.Status.Phase = corev1.ClaimPending
	}
}

func persistentVolumeClaimSpec(s *corev1.PersistentVolumeClaimSpec) {
	if s.VolumeMode == nil {
		s.VolumeMode = ptr.To(corev1.PersistentVolumeFilesystem)
	}
}
