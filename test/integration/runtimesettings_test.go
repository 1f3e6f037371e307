package integration

import (
	"bufio"
	"strconv"
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestRuntimeSettings: mco-scheduler applies --memory-limit and runs on
// one processor by default, as its Go runtime reports on /metrics.
func TestRuntimeSettings(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	sched := framework.StartScheduler(t, s, "--memory-limit=300Mi")
	metrics := httpGet(t, sched.MetricsURL())
	for name, want := range map[string]float64{
		"go_gc_gomemlimit_bytes":      300 << 20,
		"go_sched_gomaxprocs_threads": 1,
	} {
		got, ok := metricValue(metrics, name)
		if !ok {
			t.Errorf("/metrics lacks %s", name)
		} else if got != want {
			t.Errorf("%s = %v, want %v", name, got, want)
		}
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
