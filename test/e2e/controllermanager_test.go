package e2e

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/testing/prometheus"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestClusterStatus: mco-controller-manager publishes each member's
// readiness, version, APIs and capacity.
func TestClusterStatus(t *testing.T) {
	framework.Parallel(t)
	_, mco := mcoClients(t)
	eventually(t, 30*time.Second, "cluster status published", func(ctx context.Context) (bool, string) {
		list, err := mco.ClusterV1alpha1().Clusters().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, err.Error()
		}
		for _, c := range list.Items {
			s := c.Status
			if !meta.IsStatusConditionTrue(s.Conditions, "Ready") || s.KubernetesVersion != framework.MemberVersion(c.Name) ||
				len(s.APIEnablements) == 0 || s.NodeSummary == nil || s.ResourceSummary == nil {
				return false, fmt.Sprintf("%s: %+v", c.Name, s)
			}
		}
		return true, ""
	})
	c, err := mco.ClusterV1alpha1().Clusters().Get(context.Background(), "member3", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if c.Status.NodeSummary.TotalNum != 3 || c.Status.NodeSummary.ReadyNum != 3 {
		t.Errorf("member3 node summary %+v, want 3 of 3 ready", c.Status.NodeSummary)
	}
	if cpu := c.Status.ResourceSummary.Allocatable.Cpu().String(); cpu != "24" {
		t.Errorf("member3 allocatable cpu %s, want 24 (3 nodes x 8)", cpu)
	}
	out := kubectl(t, "", "get", "clusters")
	if !strings.Contains(out, framework.MemberVersion("member1")) || !strings.Contains(out, framework.MemberVersion("member2")) || !strings.Contains(out, "True") {
		t.Errorf("kubectl get clusters:\n%s", out)
	}
}

// TestControllerManagerComponent: it holds its lease, serves health, and a
// real Prometheus scrapes its metrics with Karmada's names.
func TestControllerManagerComponent(t *testing.T) {
	framework.Parallel(t)
	kube, _ := mcoClients(t)
	lease, err := kube.CoordinationV1().Leases("kube-system").Get(context.Background(), "mco-controller-manager", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("leader lease: %v", err)
	}
	if lease.Spec.HolderIdentity == nil || *lease.Spec.HolderIdentity == "" {
		t.Errorf("lease has no holder: %+v", lease.Spec)
	}
	base := framework.Env.MCO.ControllerManagerURL()
	for _, path := range []string{"/healthz", "/readyz", "/metrics"} {
		resp, err := http.Get(base + path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
	}
	prom := prometheus.Start(t, prometheus.Binary(t), map[string]string{"mco-controller-manager": strings.TrimPrefix(base, "http://")})
	prometheus.WaitFor(t, prom, `sum(cluster_ready_state)`, func(v float64) bool { return v == 3 })
	kubectl(t, deploymentYAML("default", "metrics-probe", 1, "10m")+`---
apiVersion: policy.karmada.io/v1alpha1
kind: PropagationPolicy
metadata: {name: metrics-probe, namespace: default}
spec:
  resourceSelectors: [{apiVersion: apps/v1, kind: Deployment, name: metrics-probe}]
  placement:
    clusterAffinity: {clusterNames: [member1]}
`, "apply", "-f", "-")
	prometheus.WaitFor(t, prom, `sum(create_resource_to_cluster{result="success",kind="Deployment",member_cluster="member1"})`,
		func(v float64) bool { return v >= 1 })
	prometheus.WaitFor(t, prom, `sum(binding_sync_work_duration_seconds_count{result="success"})`, func(v float64) bool { return v >= 1 })
	kubectl(t, "", "delete", "deploy/metrics-probe", "pp/metrics-probe")
}
