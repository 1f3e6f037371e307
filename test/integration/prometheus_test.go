package integration

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestPrometheusScrapesScheduler has a real Prometheus (Debian's, installed
// by hack/install-prometheus.sh) scrape mco-scheduler, and sees
// karmada_scheduler_schedule_attempts_total grow after a binding is
// scheduled.
func TestPrometheusScrapesScheduler(t *testing.T) {
	t.Parallel()
	promBin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus not installed; run hack/install-prometheus.sh (make test does)")
	}
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	createReadyCluster(t, client, "member1", "64", "256Gi")
	sched := framework.StartScheduler(t, s)
	prom := startPrometheus(t, promBin, fmt.Sprintf("127.0.0.1:%d", sched.Port))

	query := func() float64 {
		return promQuery(t, prom, `sum(karmada_scheduler_schedule_attempts_total{result="scheduled"})`)
	}
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(context.Background(), newBinding("first", 2), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	before := waitForValue(t, query, func(v float64) bool { return v >= 1 })
	if _, err := client.WorkV1alpha2().ResourceBindings("default").Create(context.Background(), newBinding("second", 2), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitForValue(t, query, func(v float64) bool { return v > before })
}

func startPrometheus(t *testing.T, bin, target string) string {
	t.Helper()
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	cfg := fmt.Sprintf("global:\n  scrape_interval: 1s\nscrape_configs:\n  - job_name: mco-scheduler\n    static_configs:\n      - targets: [%q]\n", target)
	cfgPath := filepath.Join(dir, "prometheus.yml")
	if err := os.WriteFile(cfgPath, []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "--config.file="+cfgPath, "--storage.tsdb.path="+filepath.Join(dir, "data"),
		"--web.listen-address=127.0.0.1:"+strconv.Itoa(port), "--log.level=warn")
	logPath := filepath.Join(dir, "prometheus.log")
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	cmd.Stdout, cmd.Stderr = logFile, logFile
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGTERM)
		_ = cmd.Wait()
		logFile.Close()
		if t.Failed() {
			data, _ := os.ReadFile(logPath)
			t.Logf("prometheus log:\n%s", data)
		}
	})
	return fmt.Sprintf("http://127.0.0.1:%d", port)
}

// promQuery runs an instant query and returns its single value (0 if none).
func promQuery(t *testing.T, base, q string) float64 {
	t.Helper()
	resp, err := httpGetErr(base + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		return 0
	}
	var r struct {
		Data struct {
			Result []struct {
				Value []any `json:"value"`
			} `json:"result"`
		} `json:"data"`
	}
	if err := json.Unmarshal([]byte(resp), &r); err != nil || len(r.Data.Result) == 0 || len(r.Data.Result[0].Value) != 2 {
		return 0
	}
	s, _ := r.Data.Result[0].Value[1].(string)
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

func waitForValue(t *testing.T, f func() float64, ok func(float64) bool) float64 {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v := f()
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("metric value %v never satisfied the condition", v)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
