// Package prometheus runs a real Prometheus (Debian's, installed by
// hack/install-prometheus.sh) for tests and queries it.
package prometheus

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"
)

// Binary returns the prometheus binary, skipping the test when missing.
func Binary(t *testing.T) string {
	t.Helper()
	bin, err := exec.LookPath("prometheus")
	if err != nil {
		t.Skip("prometheus not installed; run hack/install-prometheus.sh (make test does)")
	}
	return bin
}

// Start runs Prometheus scraping each job's target (host:port) every
// second, stopped when the test ends, and returns its base URL.
func Start(t *testing.T, bin string, jobs map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	names := make([]string, 0, len(jobs))
	for j := range jobs {
		names = append(names, j)
	}
	sort.Strings(names)
	cfg := "global:\n  scrape_interval: 1s\nscrape_configs:\n"
	for _, j := range names {
		cfg += fmt.Sprintf("  - job_name: %s\n    static_configs:\n      - targets: [%q]\n", j, jobs[j])
	}
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

// Query runs an instant query and returns its single value (0 if none).
func Query(base, q string) float64 {
	resp, err := http.Get(base + "/api/v1/query?query=" + url.QueryEscape(q))
	if err != nil {
		return 0
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
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
	if err := json.Unmarshal(body, &r); err != nil || len(r.Data.Result) == 0 || len(r.Data.Result[0].Value) != 2 {
		return 0
	}
	s, _ := r.Data.Result[0].Value[1].(string)
	v, _ := strconv.ParseFloat(s, 64)
	return v
}

// WaitFor polls a query until ok holds (60s at most) and returns the value.
func WaitFor(t *testing.T, base, q string, ok func(float64) bool) float64 {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		v := Query(base, q)
		if ok(v) {
			return v
		}
		if time.Now().After(deadline) {
			t.Fatalf("%s = %v never satisfied the condition", q, v)
		}
		time.Sleep(500 * time.Millisecond)
	}
}
