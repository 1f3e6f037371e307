package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"

	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

const customMetricsGV = "custom.metrics.k8s.io/v1beta2"

// serveCustomMetrics serves custom.metrics.k8s.io/v1beta2 in a member as
// a metrics adapter (prometheus-adapter, say) would: a server on loopback
// registered as the member's APIService, reached through the member's
// own aggregator, answering the Pods metric named metric with value(pod)
// for each pod the query selects. It is removed when the test ends.
func serveCustomMetrics(t *testing.T, member, metric string, value func(pod string) int64) {
	t.Helper()
	kube := memberClient(t, member)
	mux := http.NewServeMux()
	write := func(w http.ResponseWriter, v any) {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(v)
	}
	mux.HandleFunc("/apis/"+customMetricsGV, func(w http.ResponseWriter, _ *http.Request) {
		write(w, metav1.APIResourceList{TypeMeta: metav1.TypeMeta{Kind: "APIResourceList", APIVersion: "v1"}, GroupVersion: customMetricsGV,
			APIResources: []metav1.APIResource{{Name: "pods/" + metric, Namespaced: true, Kind: "MetricValueList", Verbs: []string{"get"}}}})
	})
	// /apis/custom.metrics.k8s.io/v1beta2/namespaces/<ns>/pods/<name or *>/<metric>
	mux.HandleFunc("/apis/"+customMetricsGV+"/namespaces/", func(w http.ResponseWriter, r *http.Request) {
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/apis/"+customMetricsGV+"/namespaces/"), "/")
		if len(parts) != 4 || parts[1] != "pods" || parts[3] != metric {
			http.NotFound(w, r)
			return
		}
		pods, err := kube.CoreV1().Pods(parts[0]).List(r.Context(), metav1.ListOptions{LabelSelector: r.URL.Query().Get("labelSelector")})
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		out := custommetricsv1beta2.MetricValueList{TypeMeta: metav1.TypeMeta{Kind: "MetricValueList", APIVersion: customMetricsGV}}
		for _, p := range pods.Items {
			if (parts[2] != "*" && p.Name != parts[2]) || p.Status.Phase != corev1.PodRunning {
				continue
			}
			out.Items = append(out.Items, custommetricsv1beta2.MetricValue{
				DescribedObject: corev1.ObjectReference{Kind: "Pod", APIVersion: "/v1", Namespace: p.Namespace, Name: p.Name},
				Metric:          custommetricsv1beta2.MetricIdentifier{Name: metric},
				Timestamp:       metav1.Now(),
				Value:           *resource.NewQuantity(value(p.Name), resource.DecimalSI),
			})
		}
		write(w, out)
	})
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewUnstartedServer(mux)
	srv.Listener = l
	srv.StartTLS()

	cfg, err := localcluster.RESTConfig(framework.Env.Member(member).Kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	client, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	name := "e2e-custom-metrics"
	port := int64(l.Addr().(*net.TCPAddr).Port)
	services := client.Resource(schema.GroupVersionResource{Version: "v1", Resource: "services"}).Namespace("kube-system")
	apiServices := client.Resource(schema.GroupVersionResource{Group: "apiregistration.k8s.io", Version: "v1", Resource: "apiservices"})
	apiService := "v1beta2.custom.metrics.k8s.io"
	ctx := context.Background()
	if _, err := services.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": name},
		"spec": map[string]any{"type": "ExternalName", "externalName": "localhost", "ports": []any{map[string]any{"name": "https", "port": port}}},
	}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := apiServices.Create(ctx, &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apiregistration.k8s.io/v1", "kind": "APIService", "metadata": map[string]any{"name": apiService},
		"spec": map[string]any{
			"service": map[string]any{"namespace": "kube-system", "name": name, "port": port},
			"group":   "custom.metrics.k8s.io", "version": "v1beta2", "insecureSkipTLSVerify": true,
			"groupPriorityMinimum": int64(100), "versionPriority": int64(200),
		},
	}}, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = apiServices.Delete(ctx, apiService, metav1.DeleteOptions{})
		_ = services.Delete(ctx, name, metav1.DeleteOptions{})
		srv.Close()
	})
	eventually(t, 60*time.Second, fmt.Sprintf("%s serves %s", member, customMetricsGV), func(ctx context.Context) (bool, string) {
		list, err := kube.Discovery().ServerResourcesForGroupVersion(customMetricsGV)
		if err != nil {
			return false, err.Error()
		}
		return len(list.APIResources) == 1, fmt.Sprintf("%+v", list.APIResources)
	})
}
