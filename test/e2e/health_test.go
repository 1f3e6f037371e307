package e2e

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/test/e2e/framework"
)

// clusterHealth renders a Cluster's Ready condition and NoSchedule taints.
func clusterHealth(ctx context.Context, t *testing.T, name string) (string, error) {
	_, mco := mcoClients(t)
	c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return "", err
	}
	ready := "none"
	if r := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady); r != nil {
		ready = string(r.Status) + "/" + r.Reason
	}
	var taints []string
	for _, tn := range c.Spec.Taints {
		if tn.Effect == corev1.TaintEffectNoSchedule {
			taints = append(taints, tn.Key)
		}
	}
	return fmt.Sprintf("ready=%s taints=%v", ready, taints), nil
}

// metricLine returns the line of one series on a component's /metrics
// (base is its health URL), or "" when absent.
func metricLine(ctx context.Context, base, series string) string {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return ""
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, series+" ") {
			return line
		}
	}
	return ""
}

// clusterHealthAndTaints (TestMember2Outage): a member that stops
// answering turns Ready False (ClusterNotReachable) once the failure
// threshold has passed and gets the NoSchedule not-ready taint; back, it
// turns Ready again and the taint goes. cluster_ready_state and the
// resource gauges follow.
func clusterHealthAndTaints(*testing.T) (during, after func(t *testing.T)) {
	during = func(t *testing.T) {
		paused := time.Now()
		eventually(t, 60*time.Second, "member2 not ready and tainted", func(ctx context.Context) (bool, string) {
			got, err := clusterHealth(ctx, t, "member2")
			if err != nil {
				return false, err.Error()
			}
			return got == "ready=False/ClusterNotReachable taints=[cluster.karmada.io/not-ready]", got
		})
		t.Logf("member2 Ready=False and tainted %s after the pause", time.Since(paused).Round(time.Second))
		if got := metricLine(context.Background(), framework.Env.MCO.ControllerManagerURL(), `cluster_ready_state{member_cluster="member2"}`); !strings.HasSuffix(got, " 0") {
			t.Errorf("cluster_ready_state of member2 while it is down: %q", got)
		}
	}
	after = func(t *testing.T) {
		eventually(t, 60*time.Second, "member2 ready and untainted", func(ctx context.Context) (bool, string) {
			got, err := clusterHealth(ctx, t, "member2")
			if err != nil {
				return false, err.Error()
			}
			return got == "ready=True/ClusterReady taints=[]", got
		})
		// After a long outage the member's own nodes take a moment to be
		// Ready again (their heartbeats lapsed), and the gauges follow.
		for series, want := range map[string]string{
			`cluster_ready_state{member_cluster="member2"}`:            " 1",
			`cluster_node_number{member_cluster="member2"}`:            " 1",
			`cluster_ready_node_number{member_cluster="member2"}`:      " 1",
			`cluster_cpu_allocatable_number{member_cluster="member2"}`: " 4",
		} {
			eventually(t, 30*time.Second, series, func(ctx context.Context) (bool, string) {
				got := metricLine(ctx, framework.Env.MCO.ControllerManagerURL(), series)
				return strings.HasSuffix(got, want), fmt.Sprintf("%q, want value%s", got, want)
			})
		}
	}
	return during, after
}
