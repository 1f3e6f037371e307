package workload

import (
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ingressHealthy is Karmada's rule: an Ingress is healthy once its load
// balancer has an address.
func ingressHealthy(in *networkingv1.Ingress) bool {
	return hasAddress(in.Status.LoadBalancer.Ingress, ingressAddr)
}

func ingressAddr(p networkingv1.IngressLoadBalancerIngress) (string, string) { return p.IP, p.Hostname }

// aggregateIngress gathers the load balancer ingress points of every
// member, as for a Service (see mergePoints).
func aggregateIngress(_ *networkingv1.Ingress, members []member[networkingv1.IngressStatus], _ metav1.Time) networkingv1.IngressStatus {
	points := mergePoints(members,
		func(s *networkingv1.IngressStatus) []networkingv1.IngressLoadBalancerIngress {
			return s.LoadBalancer.Ingress
		},
		ingressAddr)
	return networkingv1.IngressStatus{LoadBalancer: networkingv1.IngressLoadBalancerStatus{Ingress: points}}
}
