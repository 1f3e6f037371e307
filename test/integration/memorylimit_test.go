package integration

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestMemoryLimit: mco-scheduler started with --memory-limit runs its Go
// runtime under that soft limit, as its own /metrics reports it.
func TestMemoryLimit(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	sched := framework.StartScheduler(t, s, "--memory-limit=300Mi")
	got, ok := metricValue(httpGet(t, sched.MetricsURL()), "go_gc_gomemlimit_bytes")
	if !ok {
		t.Fatal("/metrics lacks go_gc_gomemlimit_bytes")
	}
	if want := float64(300 << 20); got != want {
		t.Errorf("go_gc_gomemlimit_bytes = %v, want %v", got, want)
	}
}

// metricValue is the value of an unlabelled sample in a Prometheus text
// exposition.
func metricValue(body, name string) (float64, bool) {
	sc := bufio.NewScanner(strings.NewReader(body))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) == 2 && f[0] == name {
			v, err := strconv.ParseFloat(f[1], 64)
			return v, err == nil
		}
	}
	return 0, false
}
