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

package workload

import (
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// reflectService records a Service's load balancer status, as Karmada does.
func reflectService(s *corev1.Service, _ int64) any {
	return corev1.ServiceStatus{LoadBalancer: s.Status.LoadBalancer}
}

// serviceHealthy is Karmada's rule: a LoadBalancer Service is healthy once
// its load balancer has an address; other Services always are.
func serviceHealthy(s *corev1.Service) bool {
	if s.Spec.Type != corev1.ServiceTypeLoadBalancer {
		return true
	}
	return hasAddress(s.Status.LoadBalancer.Ingress, func(p corev1.LoadBalancerIngress) (string, string) { return p.IP, p.Hostname })
}

// hasAddress tells whether any load balancer ingress point has an IP or a
// hostname.
func hasAddress[P any](points []P, addr func(P) (ip, hostname string)) bool {
	for _, p := range points {
		if ip, host := addr(p); ip != "" || host != "" {
			return true
		}
	}
	return false
}

// aggregateService gathers the load balancer ingress points of every member
// (see mergePoints).
func aggregateService(_ *corev1.Service, members []member[corev1.ServiceStatus], _ metav1.Time) corev1.ServiceStatus {
	ingress := mergePoints(members,
		func(s *corev1.ServiceStatus) []corev1.LoadBalancerIngress { return s.LoadBalancer.Ingress },
		func(p corev1.LoadBalancerIngress) (string, string) { return p.IP, p.Hostname })
	return corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: ingress}}
}

// mergePoints gathers the load balancer ingress points members report:
// one entry per IP and hostname (the first member's, in cluster order, when
// several report the same), sorted by IP then hostname. Entries with
// neither are dropped.
func mergePoints[R, P any](members []member[R], points func(*R) []P, addr func(P) (ip, hostname string)) []P {
	type key struct{ ip, hostname string }
	seen := map[key]bool{}
	var out []P
	for _, m := range members {
		if m.status == nil {
			continue
		}
		for _, p := range points(m.status) {
			ip, host := addr(p)
			k := key{ip, host}
			if k == (key{}) || seen[k] {
				continue
			}
			seen[k] = true
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		ai, ah := addr(out[i])
		bi, bh := addr(out[j])
		if ai != bi {
			return ai < bi
		}
		return ah < bh
	})
	return out
}
