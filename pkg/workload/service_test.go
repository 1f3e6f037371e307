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
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// lbStatus is a Service status whose load balancer has ingress points.
func lbStatus(ingress ...corev1.LoadBalancerIngress) *corev1.ServiceStatus {
	return &corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: ingress}}
}

func TestAggregateStatusOfService(t *testing.T) {
	t.Parallel()
	vip := corev1.LoadBalancerIPModeVIP
	cases := []struct {
		name  string
		items func(t *testing.T) []workv1alpha2.AggregatedStatusItem
		want  []corev1.LoadBalancerIngress
	}{
		{
			name: "The ingress points of every member are gathered, sorted by IP then hostname.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m1", lbStatus(corev1.LoadBalancerIngress{IP: "10.0.0.9"}, corev1.LoadBalancerIngress{Hostname: "b.example.com"})),
					report(t, "m2", lbStatus(corev1.LoadBalancerIngress{IP: "10.0.0.1", IPMode: &vip}, corev1.LoadBalancerIngress{Hostname: "a.example.com"})),
				}
			},
			want: []corev1.LoadBalancerIngress{{Hostname: "a.example.com"}, {Hostname: "b.example.com"}, {IP: "10.0.0.1", IPMode: &vip}, {IP: "10.0.0.9"}},
		},
		{
			name: "An ingress point several members report appears once, as the first member in cluster order reports it.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m2", lbStatus(corev1.LoadBalancerIngress{IP: "10.0.0.1"})),
					report(t, "m1", lbStatus(corev1.LoadBalancerIngress{IP: "10.0.0.1", Ports: []corev1.PortStatus{{Port: 80, Protocol: corev1.ProtocolTCP}}})),
				}
			},
			want: []corev1.LoadBalancerIngress{{IP: "10.0.0.1", Ports: []corev1.PortStatus{{Port: 80, Protocol: corev1.ProtocolTCP}}}},
		},
		{
			name: "An IP and a hostname together are one ingress point, distinct from either alone.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m1", lbStatus(corev1.LoadBalancerIngress{IP: "10.0.0.1", Hostname: "a.example.com"})),
					report(t, "m2", lbStatus(corev1.LoadBalancerIngress{IP: "10.0.0.1"})),
				}
			},
			want: []corev1.LoadBalancerIngress{{IP: "10.0.0.1"}, {IP: "10.0.0.1", Hostname: "a.example.com"}},
		},
		{
			name: "Members without a load balancer, without an address, or not reporting add nothing.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m1", lbStatus()),
					report(t, "m2", lbStatus(corev1.LoadBalancerIngress{})),
					report(t, "m3", nil),
				}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			svc := &corev1.Service{Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeLoadBalancer},
				Status: corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "192.0.2.1"}}}}}
			got := aggregateAs[corev1.ServiceStatus](t, object(t, "v1", "Service", svc), tc.items(t))
			if diff := cmp.Diff(corev1.ServiceStatus{LoadBalancer: corev1.LoadBalancerStatus{Ingress: tc.want}}, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealthOfService(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		typ     corev1.ServiceType
		ingress []corev1.LoadBalancerIngress
		want    workv1alpha2.ResourceHealth
	}{
		{name: "A ClusterIP Service is healthy.", typ: corev1.ServiceTypeClusterIP, want: workv1alpha2.ResourceHealthy},
		{name: "A Service of default type is healthy.", want: workv1alpha2.ResourceHealthy},
		{
			name: "A LoadBalancer Service with an IP is healthy.", typ: corev1.ServiceTypeLoadBalancer,
			ingress: []corev1.LoadBalancerIngress{{IP: "10.0.0.1"}}, want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A LoadBalancer Service with a hostname is healthy.", typ: corev1.ServiceTypeLoadBalancer,
			ingress: []corev1.LoadBalancerIngress{{Hostname: "a.example.com"}}, want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A LoadBalancer Service without ingress is unhealthy.", typ: corev1.ServiceTypeLoadBalancer,
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A LoadBalancer Service whose ingress has no address is unhealthy.", typ: corev1.ServiceTypeLoadBalancer,
			ingress: []corev1.LoadBalancerIngress{{}}, want: workv1alpha2.ResourceUnhealthy,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			svc := &corev1.Service{Spec: corev1.ServiceSpec{Type: tc.typ}, Status: *lbStatus(tc.ingress...)}
			if got := Health(object(t, "v1", "Service", svc)); got != tc.want {
				t.Errorf("Health = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReflectStatusOfService(t *testing.T) {
	t.Parallel()
	svc := &corev1.Service{Status: corev1.ServiceStatus{
		LoadBalancer: corev1.LoadBalancerStatus{Ingress: []corev1.LoadBalancerIngress{{IP: "10.0.0.1"}}},
		Conditions:   []metav1.Condition{{Type: "LoadBalancerReady", Status: "True", Reason: "Ready", LastTransitionTime: aggregatedAt}},
	}}
	t.Run("A Service records its load balancer status and nothing else.", func(t *testing.T) {
		t.Parallel()
		got, fields := reflectAs[corev1.ServiceStatus](t, object(t, "v1", "Service", svc))
		if diff := cmp.Diff(*lbStatus(corev1.LoadBalancerIngress{IP: "10.0.0.1"}), got); diff != "" {
			t.Errorf("status differs (-want +got):\n%s", diff)
		}
		if _, ok := fields["conditions"]; ok {
			t.Error("status carries conditions, which mco does not collect")
		}
	})
}
