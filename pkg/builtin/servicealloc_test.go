package builtin

import (
	"context"
	"sort"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/kubernetes/pkg/api/legacyscheme"
	api "k8s.io/kubernetes/pkg/apis/core"
	"k8s.io/kubernetes/pkg/registry/core/service"
	"k8s.io/utils/ptr"
)

// internalService is a Service as the request decodes it (defaulted),
// in the internal version validation reads.
func internalService(t *testing.T, mutate func(*corev1.Service)) *api.Service {
	t.Helper()
	s := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default"},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "web"},
			Ports:    []corev1.ServicePort{{Name: "http", Port: 80, TargetPort: intstr.FromInt32(8080)}},
		},
	}
	if mutate != nil {
		mutate(s)
	}
	legacyscheme.Scheme.Default(s)
	out := &api.Service{}
	if err := legacyscheme.Scheme.Convert(s, out, nil); err != nil {
		t.Fatal(err)
	}
	return out
}

// causes lists "field: type" of an allocation error or of validation.
func causes(t *testing.T, svc *api.Service, old *api.Service) []string {
	t.Helper()
	ctx := context.Background()
	var errs []string
	if err := allocateService(ctx, svc, old); err != nil {
		errs = append(errs, "allocate: "+err.Error())
		return errs
	}
	list := service.Strategy.Validate(ctx, svc)
	if old != nil {
		list = service.Strategy.ValidateUpdate(ctx, svc, old)
	}
	for _, e := range list {
		errs = append(errs, e.Field+": "+string(e.Type))
	}
	sort.Strings(errs)
	return errs
}

// allocateService allocates on a create (old nil) or an update; a nil
// *api.Service must not reach allocate as a non-nil runtime.Object.
func allocateService(ctx context.Context, svc, old *api.Service) error {
	if old == nil {
		return services.allocate(ctx, svc, nil)
	}
	return services.allocate(ctx, svc, old)
}

// TestServiceAllocation: validation of a Service sees what
// kube-apiserver's allocation gives it (cluster IPs, families, node ports),
// on allocators that take any address of either family and any port.
func TestServiceAllocation(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		mutate func(*corev1.Service)
		// want is "" for accepted, else a substring of the causes.
		want string
		// check inspects the allocated copy.
		check func(*api.Service) string
	}{
		{name: "cluster IP allocated with its family", check: func(s *api.Service) string {
			if len(s.Spec.ClusterIPs) != 1 || s.Spec.ClusterIP != s.Spec.ClusterIPs[0] || len(s.Spec.IPFamilies) != 1 || s.Spec.IPFamilies[0] != api.IPv4Protocol {
				return "want one IPv4 cluster IP"
			}
			return ""
		}},
		{name: "cluster IP set without clusterIPs", mutate: func(s *corev1.Service) { s.Spec.ClusterIP = "10.96.0.10" }, check: func(s *api.Service) string {
			if len(s.Spec.ClusterIPs) != 1 || s.Spec.ClusterIPs[0] != "10.96.0.10" {
				return "clusterIPs not taken from clusterIP"
			}
			return ""
		}},
		{name: "any address is in range", mutate: func(s *corev1.Service) { s.Spec.ClusterIP = "192.168.250.3" }},
		{name: "headless", mutate: func(s *corev1.Service) { s.Spec.ClusterIP = corev1.ClusterIPNone }},
		{name: "headless without ports", mutate: func(s *corev1.Service) { s.Spec.ClusterIP = corev1.ClusterIPNone; s.Spec.Ports = nil }},
		{name: "IPv6 only", mutate: func(s *corev1.Service) { s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol} }},
		{name: "require dual stack", mutate: func(s *corev1.Service) {
			s.Spec.IPFamilyPolicy = ptr.To(corev1.IPFamilyPolicyRequireDualStack)
		}, check: func(s *api.Service) string {
			if len(s.Spec.ClusterIPs) != 2 {
				return "want two cluster IPs"
			}
			return ""
		}},
		{name: "node ports made up", mutate: func(s *corev1.Service) {
			s.Spec.Type = corev1.ServiceTypeNodePort
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: "https", Port: 443})
		}, check: func(s *api.Service) string {
			if p := s.Spec.Ports; p[0].NodePort == 0 || p[1].NodePort == 0 || p[0].NodePort == p[1].NodePort {
				return "want two distinct node ports"
			}
			return ""
		}},
		{name: "load balancer with local traffic gets a health-check port", mutate: func(s *corev1.Service) {
			s.Spec.Type = corev1.ServiceTypeLoadBalancer
			s.Spec.ExternalTrafficPolicy = corev1.ServiceExternalTrafficPolicyLocal
		}, check: func(s *api.Service) string {
			if s.Spec.HealthCheckNodePort == 0 {
				return "no health-check node port"
			}
			return ""
		}},
		{name: "external name with a cluster IP", mutate: func(s *corev1.Service) {
			s.Spec.Type = corev1.ServiceTypeExternalName
			s.Spec.ExternalName = "db.example.com"
			s.Spec.ClusterIP = "10.96.0.10"
		}, want: "spec.clusterIPs"},
		{name: "cluster IP not an address", mutate: func(s *corev1.Service) { s.Spec.ClusterIP = "not-an-ip" }, want: "spec.clusterIPs[0]: Invalid value"},
		{name: "family not matching the address", mutate: func(s *corev1.Service) {
			s.Spec.ClusterIP = "10.96.0.10"
			s.Spec.IPFamilies = []corev1.IPFamily{corev1.IPv6Protocol}
		}, want: "expected an IPv6 value"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			svc := internalService(t, tc.mutate)
			got := strings.Join(causes(t, svc, nil), "; ")
			switch {
			case tc.want == "" && got != "":
				t.Fatalf("rejected: %s", got)
			case tc.want != "" && !strings.Contains(got, tc.want):
				t.Fatalf("causes %q, want %q among them", got, tc.want)
			}
			if tc.check != nil && tc.want == "" {
				if msg := tc.check(svc); msg != "" {
					t.Errorf("%s: %+v", msg, svc.Spec)
				}
			}
		})
	}
}

// TestServiceAllocationUpdate: an update validates against the stored
// object with allocations a member would have given it, and keeps them
// where the update leaves them out.
func TestServiceAllocationUpdate(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	old := internalService(t, nil)
	if err := services.allocate(ctx, old, nil); err != nil {
		t.Fatal(err)
	}
	svc := internalService(t, func(s *corev1.Service) { s.Labels = map[string]string{"tier": "front"} })
	svc.ResourceVersion = "1"
	old.ResourceVersion = "1"
	if got := causes(t, svc, old); len(got) != 0 {
		t.Fatalf("update rejected: %v", got)
	}
	if svc.Spec.ClusterIP != old.Spec.ClusterIP {
		t.Errorf("cluster IP %q, want the stored %q", svc.Spec.ClusterIP, old.Spec.ClusterIP)
	}
	changed := internalService(t, func(s *corev1.Service) { s.Spec.ClusterIP = "10.96.7.7"; s.Spec.ClusterIPs = []string{"10.96.7.7"} })
	changed.ResourceVersion = "1"
	if got := strings.Join(causes(t, changed, old), "; "); !strings.Contains(got, "spec.clusterIPs[0]: FieldValueInvalid") {
		t.Errorf("changing the cluster IP: causes %q, want spec.clusterIPs[0] invalid (immutable)", got)
	}
}
