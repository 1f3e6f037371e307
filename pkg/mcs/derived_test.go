package mcs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/utils/ptr"
)

func serviceImport(typ string, ports ...any) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "multicluster.x-k8s.io/v1alpha1", "kind": "ServiceImport",
		"metadata": map[string]any{"namespace": "shop", "name": "backend"},
		"spec":     map[string]any{"type": typ, "ports": ports},
	}}
	return u
}

func TestDerivedService(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		imp    *unstructured.Unstructured
		ok     bool
		ports  []corev1.ServicePort
		errors bool
	}{
		{name: "ClusterSetIP: a ClusterIP Service with the import's ports.", ok: true,
			imp: serviceImport("ClusterSetIP", map[string]any{"name": "http", "protocol": "TCP", "port": int64(80), "appProtocol": "http"},
				map[string]any{"name": "dns", "protocol": "UDP", "port": int64(53)}),
			ports: []corev1.ServicePort{{Name: "http", Protocol: "TCP", Port: 80, AppProtocol: ptr.To("http")}, {Name: "dns", Protocol: "UDP", Port: 53}}},
		{name: "Headless gets no Service.", imp: serviceImport("Headless")},
		{name: "A port that is not a number is an error.", imp: serviceImport("ClusterSetIP", map[string]any{"port": "eighty"}), errors: true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			svc, ok, err := DerivedService(tc.imp)
			if (err != nil) != tc.errors || ok != tc.ok {
				t.Fatalf("DerivedService = %v, %v, %v", svc, ok, err)
			}
			if !ok {
				return
			}
			if !DerivedBy(svc, "backend") || DerivedBy(svc, "other") {
				t.Errorf("owner references %+v", svc.OwnerReferences)
			}
			if svc.Name != "derived-backend" || svc.Namespace != "shop" || svc.Spec.Type != corev1.ServiceTypeClusterIP || svc.Spec.Selector != nil {
				t.Errorf("derived Service %+v", svc)
			}
			if diff := cmp.Diff(tc.ports, svc.Spec.Ports); diff != "" {
				t.Errorf("ports (-want +got):\n%s", diff)
			}
		})
	}
}

func TestImportDependencies(t *testing.T) {
	t.Parallel()
	deps := ImportDependencies(serviceImport("ClusterSetIP"))
	if len(deps) != 2 || deps[0].Kind != "Service" || deps[0].Name != "derived-backend" ||
		deps[1].Kind != "EndpointSlice" || deps[1].LabelSelector.MatchLabels["kubernetes.io/service-name"] != "derived-backend" {
		t.Errorf("dependencies %+v", deps)
	}
	if diff := cmp.Diff([]any{map[string]any{"cluster": "member2"}}, ImportClusters([]string{"member2"})); diff != "" {
		t.Errorf("status.clusters (-want +got):\n%s", diff)
	}
}
