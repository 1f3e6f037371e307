package metrics

import (
	"strings"
	"testing"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/testutil"
	"k8s.io/client-go/util/workqueue"
)

func TestWorkqueueMetricsCountByQueueName(t *testing.T) {
	reg := prometheus.NewRegistry()
	if err := RegisterWorkqueue(reg); err != nil {
		t.Fatal(err)
	}
	q := workqueue.NewTypedWithConfig(workqueue.TypedQueueConfig[string]{Name: "example"})
	defer q.ShutDown()
	q.Add("a")
	q.Add("b")
	q.Add("a") // already queued: not counted again
	item, _ := q.Get()
	q.Done(item)

	want := `
# HELP workqueue_adds_total Adds handled by the work queue.
# TYPE workqueue_adds_total counter
workqueue_adds_total{name="example"} 2
# HELP workqueue_depth Current depth of the work queue.
# TYPE workqueue_depth gauge
workqueue_depth{name="example"} 1
`
	if err := testutil.GatherAndCompare(reg, strings.NewReader(want), "workqueue_adds_total", "workqueue_depth"); err != nil {
		t.Error(err)
	}
}
