package integration

import (
	"context"
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/prometheus"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestPrometheusScrapesScheduler has a real Prometheus (Debian's, installed
// by hack/install-prometheus.sh) scrape mco-scheduler, and sees
// karmada_scheduler_schedule_attempts_total grow after a binding is
// scheduled.
func TestPrometheusScrapesScheduler(t *testing.T) {
	t.Parallel()
	promBin := prometheus.Binary(t)
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	createReadyCluster(t, client, "member1", "64", "256Gi")
	sched := framework.StartScheduler(t, s)
	prom := prometheus.Start(t, promBin, map[string]string{"mco-scheduler": fmt.Sprintf("127.0.0.1:%d", sched.Port)})

	const q = `sum(karmada_scheduler_schedule_attempts_total{result="scheduled"})`
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(context.Background(), newBinding("first", 2), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	before := prometheus.WaitFor(t, prom, q, func(v float64) bool { return v >= 1 })
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(context.Background(), newBinding("second", 2), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	prometheus.WaitFor(t, prom, q, func(v float64) bool { return v > before })
}
