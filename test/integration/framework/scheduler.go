package framework

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// Scheduler is a running mco-scheduler process.
type Scheduler struct {
	Port int
	cmd  *exec.Cmd
	log  string
}

// MetricsURL is where the scheduler serves Prometheus metrics.
func (s *Scheduler) MetricsURL() string { return fmt.Sprintf("http://127.0.0.1:%d/metrics", s.Port) }

// StartScheduler runs mco-scheduler against the apiserver, with leader
// election on, and waits until its caches are synced. It is stopped when
// the test ends.
func StartScheduler(t testing.TB, api *APIServer, extraArgs ...string) *Scheduler {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s := &Scheduler{Port: port, log: filepath.Join(api.DataDir, fmt.Sprintf("scheduler-%d.log", port))}
	logFile, err := os.Create(s.log)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{"--kubeconfig", api.Kubeconfig, "--bind-address", fmt.Sprintf("127.0.0.1:%d", port)}, extraArgs...)
	s.cmd = exec.Command(Binary(t, "mco-scheduler"), args...)
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = s.cmd.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = s.cmd.Process.Kill()
			<-done
		}
		logFile.Close()
		if t.Failed() {
			if data, err := os.ReadFile(s.log); err == nil {
				t.Logf("mco-scheduler log:\n%s", tail(data, 20000))
			}
		}
	})
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(fmt.Sprintf("http://127.0.0.1:%d/readyz", port))
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return s
			}
		}
		if time.Now().After(deadline) {
			data, _ := os.ReadFile(s.log)
			t.Fatalf("mco-scheduler not ready: %v\n%s", err, tail(data, 5000))
		}
		time.Sleep(200 * time.Millisecond)
	}
}

func tail(b []byte, n int) []byte {
	if len(b) > n {
		return b[len(b)-n:]
	}
	return b
}
