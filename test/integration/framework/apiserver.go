// Package framework starts mco-apiserver (and mco-scheduler) as separate
// processes on free loopback ports, through pkg/testing/localcluster like
// local-up and the e2e tests, and drives them with the real kubectl, for
// integration tests.
package framework

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/mco-org/mco/pkg/testing/localcluster"
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

	proc *localcluster.Process
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
// is stopped when the test ends, and its log shown if the test failed.
func StartAPIServer(t testing.TB, dataDir string, extraArgs ...string) *APIServer {
	t.Helper()
	if dataDir == "" {
		dataDir = t.TempDir()
	}
	s := &APIServer{DataDir: dataDir, ExtraArgs: extraArgs, Kubeconfig: localcluster.APIServerKubeconfig(dataDir)}
	t.Cleanup(func() {
		s.Stop()
		if t.Failed() && s.proc != nil {
			t.Logf("mco-apiserver log (%s):\n%s", s.proc.Log, s.proc.LogTail(logTail))
		}
	})
	s.start(t)
	return s
}

// logTail is how much of a component's log a failed test shows.
const logTail = 20000

func (s *APIServer) start(t testing.TB) {
	t.Helper()
	Binary(t, "mco-apiserver")
	c, err := localcluster.StartAPIServer(context.Background(), BinDir(t), s.DataDir, s.DataDir, s.ExtraArgs...)
	if c != nil {
		s.proc, s.Port = c.Process, c.Port
	}
	if err != nil {
		t.Fatalf("mco-apiserver not ready: %v", err)
	}
	cfg, err := clientcmd.BuildConfigFromFlags("", s.Kubeconfig)
	if err != nil {
		t.Fatalf("load %s: %v", s.Kubeconfig, err)
	}
	cfg.Host = s.URL()
	s.Config = cfg
}

// Restart stops the server and starts it again on the same data directory.
func (s *APIServer) Restart(t testing.TB) {
	t.Helper()
	s.Stop()
	s.start(t)
}

// Stop terminates the server process (SIGTERM, then SIGKILL) and waits.
func (s *APIServer) Stop() {
	if s.proc != nil {
		s.proc.Stop(20 * time.Second)
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
func (s *APIServer) URL() string { return localcluster.APIServerURL(s.Port) }
