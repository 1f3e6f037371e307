package framework

import (
	"context"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// Scheduler is a running mco-scheduler process.
type Scheduler struct {
	Port int
	proc *localcluster.Process
}

// MetricsURL is where the scheduler serves Prometheus metrics.
func (s *Scheduler) MetricsURL() string { return localcluster.HealthURL(s.Port) + "/metrics" }

// StartScheduler runs mco-scheduler against the apiserver, with leader
// election on, and waits until its caches are synced. It is stopped when
// the test ends, and its log shown if the test failed.
func StartScheduler(t testing.TB, api *APIServer, extraArgs ...string) *Scheduler {
	t.Helper()
	Binary(t, "mco-scheduler")
	c, err := localcluster.StartScheduler(context.Background(), BinDir(t), localcluster.SchedulerKubeconfig(api.DataDir), api.DataDir, extraArgs...)
	if c == nil {
		t.Fatalf("start mco-scheduler: %v", err)
	}
	s := &Scheduler{Port: c.Port, proc: c.Process}
	t.Cleanup(func() {
		s.proc.Stop(15 * time.Second)
		if t.Failed() {
			t.Logf("mco-scheduler log (%s):\n%s", s.proc.Log, s.proc.LogTail(logTail))
		}
	})
	if err != nil {
		t.Fatalf("mco-scheduler not ready: %v", err)
	}
	return s
}
