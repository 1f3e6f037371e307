// Package framework starts mco-apiserver as a separate process on a free
// loopback port and drives it with the real kubectl, for integration tests.
package framework

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mco-org/mco/pkg/testing/repo"
)

// APIServer is a running mco-apiserver process.
type APIServer struct {
	DataDir    string
	Port       int
	Kubeconfig string
	// Config is the admin client configuration.
	Config *rest.Config
	// ExtraArgs were passed on the command line (kept for restarts).
	ExtraArgs []string

	cmd     *exec.Cmd
	logPath string
}

// BinDir returns _output/bin of the repository, where `make build` and
// hack/build-tools.sh put binaries.
func BinDir(t testing.TB) string {
	return filepath.Join(repo.Root(t), "_output", "bin")
}

// Binary returns the absolute path of a built binary, failing the test with
// what to run when it is missing.
func Binary(t testing.TB, name string) string {
	t.Helper()
	p := filepath.Join(BinDir(t), name)
	if _, err := os.Stat(p); err != nil {
		t.Fatalf("%s not built: run 'make build' and 'hack/build-tools.sh' (make test does both)", p)
	}
	return p
}

// StartAPIServer starts mco-apiserver with its data under dataDir (a new
// temporary directory when empty) and waits until it is ready. The process
// is stopped when the test ends.
func StartAPIServer(t testing.TB, dataDir string, extraArgs ...string) *APIServer {
	t.Helper()
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	s := &APIServer{DataDir: dataDir, ExtraArgs: extraArgs}
	s.start(t)
	return s
}

func (s *APIServer) start(t testing.TB) {
	t.Helper()
	port, err := freePort()
	if err != nil {
		t.Fatal(err)
	}
	s.Port = port
	s.logPath = filepath.Join(s.DataDir, fmt.Sprintf("apiserver-%d.log", time.Now().UnixNano()))
	logFile, err := os.Create(s.logPath)
	if err != nil {
		t.Fatal(err)
	}
	args := append([]string{
		"--data-dir", s.DataDir,
		"--bind-address", "127.0.0.1",
		"--secure-port", strconv.Itoa(port),
	}, s.ExtraArgs...)
	s.cmd = exec.Command(Binary(t, "mco-apiserver"), args...)
	s.cmd.Stdout, s.cmd.Stderr = logFile, logFile
	s.cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start mco-apiserver: %v", err)
	}
	t.Cleanup(func() {
		s.Stop()
		logFile.Close()
		if t.Failed() {
			s.dumpLog(t)
		}
	})
	s.Kubeconfig = filepath.Join(s.DataDir, "admin.kubeconfig")
	if err := s.waitReady(90 * time.Second); err != nil {
		s.dumpLog(t)
		t.Fatalf("mco-apiserver not ready: %v", err)
	}
}

// Restart stops the server and starts it again on the same data directory.
func (s *APIServer) Restart(t testing.TB) {
	t.Helper()
	s.Stop()
	s.start(t)
}

// Stop terminates the server process (SIGTERM, then SIGKILL) and waits.
func (s *APIServer) Stop() {
	if s.cmd == nil || s.cmd.Process == nil || s.cmd.ProcessState != nil {
		return
	}
	_ = s.cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan struct{})
	go func() { _ = s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		_ = s.cmd.Process.Kill()
		<-done
	}
}

// Client returns a typed client for the built-in kinds.
func (s *APIServer) Client(t testing.TB) kubernetes.Interface {
	t.Helper()
	c, err := kubernetes.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// URL is the server's base URL.
func (s *APIServer) URL() string {
	return fmt.Sprintf("https://127.0.0.1:%d", s.Port)
}

func (s *APIServer) waitReady(timeout time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	var lastErr error
	for ctx.Err() == nil {
		if s.cmd.ProcessState != nil {
			return fmt.Errorf("process exited: %v", s.cmd.ProcessState)
		}
		if cfg, err := clientcmd.BuildConfigFromFlags("", s.Kubeconfig); err == nil {
			cfg.Host = s.URL()
			s.Config = cfg
			client, err := kubernetes.NewForConfig(cfg)
			if err == nil {
				body, err := client.Discovery().RESTClient().Get().AbsPath("/readyz").DoRaw(ctx)
				if err == nil && string(body) == "ok" {
					return nil
				}
				lastErr = fmt.Errorf("readyz: %v %s", err, body)
			}
		}
		time.Sleep(200 * time.Millisecond)
	}
	return fmt.Errorf("timed out after %s: %v", timeout, lastErr)
}

func (s *APIServer) dumpLog(t testing.TB) {
	data, err := os.ReadFile(s.logPath)
	if err != nil {
		return
	}
	const max = 20000
	if len(data) > max {
		data = data[len(data)-max:]
	}
	t.Logf("mco-apiserver log (%s, last %d bytes):\n%s", s.logPath, len(data), data)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
