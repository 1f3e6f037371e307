package localcluster

import (
	"context"
	"fmt"
	"path/filepath"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
)

// A member's metrics.k8s.io: metrics-server, run as a local process with
// the member's admin credentials, scrapes kwok's emulation of each node's
// kubelet resource metrics and is registered as the member's
// v1beta1.metrics.k8s.io APIService — all on loopback, as kwokctl sets it
// up: the APIService points at an ExternalName Service naming localhost,
// and the member's kube-apiserver (aggregator routing off, aggregatorArgs)
// sends requests to localhost at the APIService's port through its front
// proxy. The Service's name is local-up's own, not the metrics-server
// chart's, so that the chart installed later as an add-on does not meet
// it; there are no RBAC objects to collide with.
const (
	metricsServiceName = "mco-local-metrics-server"
	metricsAPIService  = "v1beta1.metrics.k8s.io"
	// resourceMetricsPathAnnotation tells metrics-server (v0.8.0 and
	// later) where a node's resource metrics are served: kwok serves every
	// node's on its one port.
	resourceMetricsPathAnnotation = "metrics.k8s.io/resource-metrics-path"
)

// resourceMetricsPath is where kwok serves a node's resource metrics (the
// path of its metrics-resource Metric).
func resourceMetricsPath(node string) string { return "/metrics/nodes/" + node + "/metrics/resource" }

// startMetricsServer runs a member's metrics-server on a free port.
func startMetricsServer(env *Env, m *Member, dir, logDir string) error {
	port, err := freePort()
	if err != nil {
		return err
	}
	m.MetricsPort = port
	m.MetricsServer, err = startProcess("metrics-server", filepath.Join(env.BinDir, "metrics-server"), []string{
		"--kubeconfig=" + m.Kubeconfig,
		"--authentication-kubeconfig=" + m.Kubeconfig,
		"--authorization-kubeconfig=" + m.Kubeconfig,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
		"--cert-dir=" + filepath.Join(dir, "metrics-server"),
		"--kubelet-insecure-tls",
		"--kubelet-use-node-status-port",
		"--kubelet-preferred-address-types=InternalIP",
		"--metric-resolution=10s",
		"--kubelet-request-timeout=5s",
		"--v=1",
	}, logDir)
	return err
}

// registerMetricsAPI creates, or points again at the current port, the
// member's Service and APIService of metrics.k8s.io.
func (m *Member) registerMetricsAPI(ctx context.Context) error {
	cfg, err := RESTConfig(m.Kubeconfig)
	if err != nil {
		return err
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return fmt.Errorf("member %s: %w", m.Spec.Name, err)
	}
	port := int64(m.MetricsPort)
	svc := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Service",
		"metadata": map[string]any{"name": metricsServiceName, "namespace": "kube-system"},
		"spec": map[string]any{"type": "ExternalName", "externalName": "localhost",
			"ports": []any{map[string]any{"name": "https", "port": port}}},
	}}
	services := client.Resource(schema.GroupVersionResource{Version: "v1", Resource: "services"}).Namespace("kube-system")
	if err := createOrReplace(ctx, services, svc); err != nil {
		return fmt.Errorf("member %s: metrics Service: %w", m.Spec.Name, err)
	}
	api := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService",
		"metadata": map[string]any{"name": metricsAPIService},
		"spec": map[string]any{
			"service":               map[string]any{"namespace": "kube-system", "name": metricsServiceName, "port": port},
			"group":                 "metrics.k8s.io",
			"version":               "v1beta1",
			"insecureSkipTLSVerify": true,
			"groupPriorityMinimum":  int64(100),
			"versionPriority":       int64(100),
		},
	}}
	apiServices := client.Resource(schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"})
	if err := createOrReplace(ctx, apiServices, api); err != nil {
		return fmt.Errorf("member %s: metrics APIService: %w", m.Spec.Name, err)
	}
	return nil
}
