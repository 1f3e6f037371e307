package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestNetworkingKinds applies Karmada's networking kinds with real kubectl:
// MultiClusterService and MultiClusterIngress are served under their short
// names; bad input is refused naming the field; a MultiClusterService's
// types cannot change.
func TestNetworkingKinds(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, `apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterService
metadata: {name: backend, namespace: default}
spec:
  types: [CrossCluster]
  ports: [{name: http, port: 80}]
  providerClusters: [{name: member3}]
  consumerClusters: [{name: member1}, {name: not-joined}]
---
apiVersion: networking.karmada.io/v1alpha1
kind: MultiClusterIngress
metadata: {name: web, namespace: default}
spec:
  rules:
  - host: web.example.com
    http:
      paths: [{path: /, pathType: Prefix, backend: {service: {name: web, port: {number: 80}}}}]
`, "apply", "-f", "-")
	if out := s.MustKubectl(t, "", "get", "mcs,mci", "-n", "default"); !strings.Contains(out, "multiclusterservice.networking.karmada.io/backend") ||
		!strings.Contains(out, "multiclusteringress.networking.karmada.io/web") {
		t.Fatalf("kubectl get mcs,mci:\n%s", out)
	}
	for _, bad := range []struct{ name, yaml, want string }{
		{"type", "apiVersion: networking.karmada.io/v1alpha1\nkind: MultiClusterService\nmetadata: {name: bad-type, namespace: default}\nspec: {types: [Teleport]}\n",
			"spec.types[0]"},
		{"port", "apiVersion: networking.karmada.io/v1alpha1\nkind: MultiClusterService\nmetadata: {name: bad-port, namespace: default}\nspec: {types: [CrossCluster], ports: [{port: 70000}]}\n",
			"spec.ports[0].port"},
		{"immutable types", "apiVersion: networking.karmada.io/v1alpha1\nkind: MultiClusterService\nmetadata: {name: backend, namespace: default}\nspec: {types: [LoadBalancer]}\n",
			"MultiClusterService types are immutable"},
		{"ingress", "apiVersion: networking.karmada.io/v1alpha1\nkind: MultiClusterIngress\nmetadata: {name: empty, namespace: default}\nspec: {}\n",
			"either `defaultBackend` or `rules` must be specified"},
	} {
		_, stderr, err := s.Kubectl(t, bad.yaml, "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, bad.want) {
			t.Errorf("%s: err %v, stderr %q; want a refusal mentioning %q", bad.name, err, stderr, bad.want)
		}
	}
}

// TestEndpointSlicesServed: mco serves discovery.k8s.io/v1 EndpointSlices
// (where it keeps the endpoints it collects from the members) with
// kube-apiserver's validation.
func TestEndpointSlicesServed(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, `apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata:
  name: imported-member3-backend-abcde
  namespace: default
  labels: {kubernetes.io/service-name: derived-backend, endpointslice.kubernetes.io/managed-by: endpointslice-controller.karmada.io}
addressType: IPv4
ports: [{name: http, port: 8080, protocol: TCP}]
endpoints: [{addresses: [10.0.3.7], conditions: {ready: true}}]
`, "apply", "-f", "-")
	if out := s.MustKubectl(t, "", "get", "endpointslices", "-n", "default"); !strings.Contains(out, "imported-member3-backend-abcde") || !strings.Contains(out, "10.0.3.7") {
		t.Fatalf("kubectl get endpointslices:\n%s", out)
	}
	_, stderr, err := s.Kubectl(t, "apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata: {name: bad, namespace: default}\naddressType: IPv5\n", "apply", "-f", "-")
	if err == nil || !strings.Contains(stderr, "addressType") {
		t.Errorf("a bad addressType: err %v, stderr %q", err, stderr)
	}
}

// TestMCSAPIInstalled: a fresh mco serves the Kubernetes MCS API's
// ServiceExport and ServiceImport (its own CRDs, installed at start-up),
// and Karmada's manifests for them apply unchanged.
func TestMCSAPIInstalled(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	out := s.MustKubectl(t, "", "get", "crd", "serviceexports.multicluster.x-k8s.io", "serviceimports.multicluster.x-k8s.io",
		"-o", "jsonpath={range .items[*]}{.metadata.name}={.status.conditions[?(@.type==\"Established\")].status} {end}")
	if !strings.Contains(out, "serviceexports.multicluster.x-k8s.io=True") || !strings.Contains(out, "serviceimports.multicluster.x-k8s.io=True") {
		t.Fatalf("the MCS API's CRDs: %s", out)
	}
	manifests := `apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceExport
metadata: {name: serve, namespace: default}
---
apiVersion: multicluster.x-k8s.io/v1alpha1
kind: ServiceImport
metadata: {name: serve, namespace: default}
spec:
  type: ClusterSetIP
  ports: [{port: 80, protocol: TCP}]
`
	// The CRDs are established; kubectl's discovery may lag a moment.
	var stderr string
	err := wait.PollUntilContextTimeout(context.Background(), 500*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		var err error
		_, stderr, err = s.Kubectl(t, manifests, "apply", "-f", "-")
		return err == nil, nil
	})
	if err != nil {
		t.Fatalf("apply ServiceExport and ServiceImport: %v: %s", err, stderr)
	}
	if out := s.MustKubectl(t, "", "get", "serviceexports,serviceimports", "-n", "default"); !strings.Contains(out, "serviceexport.multicluster.x-k8s.io/serve") {
		t.Fatalf("kubectl get:\n%s", out)
	}
	if out := s.MustKubectl(t, "", "get", "crd", "serviceimports.multicluster.x-k8s.io", "-o", "jsonpath={.spec.versions[*].name}"); out != "v1alpha1" {
		t.Errorf("served versions %q, want v1alpha1 alone (Karmada's)", out)
	}
	bad := []struct{ spec, want string }{
		{"{type: ClusterSetIP}", "spec.ports: Required value"},
		{"{type: ClusterSetIP, ports: [{port: 70000, protocol: TCP}]}", "spec.ports[0].port: Invalid value: 70000"},
		{"{type: Nodes, ports: [{port: 80, protocol: TCP}]}", `spec.type: Unsupported value: "Nodes"`},
	}
	for _, b := range bad {
		_, stderr, err := s.Kubectl(t, "apiVersion: multicluster.x-k8s.io/v1alpha1\nkind: ServiceImport\nmetadata: {name: bad, namespace: default}\nspec: "+b.spec+"\n", "apply", "-f", "-")
		if err == nil || !strings.Contains(stderr, b.want) {
			t.Errorf("ServiceImport spec %s: %v %s, want %q", b.spec, err, stderr, b.want)
		}
	}
}
