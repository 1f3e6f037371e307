package framework

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/cli"
)

// Kubectl runs the real kubectl (by absolute path, never the one on PATH)
// against the server and returns stdout, stderr and the error.
func (s *APIServer) Kubectl(t testing.TB, stdin string, args ...string) (string, string, error) {
	t.Helper()
	return s.KubectlWith(t, Binary(t, "kubectl"), stdin, args...)
}

// KubectlWith runs the kubectl binary at path against the server.
func (s *APIServer) KubectlWith(t testing.TB, path, stdin string, args ...string) (string, string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	full := append([]string{"--kubeconfig", s.Kubeconfig, "--cache-dir", cli.CacheDir(s.Kubeconfig), "--server", s.URL()}, args...)
	cmd := exec.CommandContext(ctx, path, full...)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	if stdin != "" {
		cmd.Stdin = strings.NewReader(stdin)
	}
	err := cmd.Run()
	return out.String(), errOut.String(), err
}

// MustKubectl runs kubectl and fails the test when it fails.
func (s *APIServer) MustKubectl(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	out, errOut, err := s.Kubectl(t, stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\nstdout: %s\nstderr: %s", strings.Join(args, " "), err, out, errOut)
	}
	return out
}

// WaitEstablished waits until the CRDs args name are Established (see
// cli.Kubectl.WaitEstablished).
func (s *APIServer) WaitEstablished(t testing.TB, args ...string) {
	t.Helper()
	cli.Kubectl{Bin: Binary(t, "kubectl"), Kubeconfig: s.Kubeconfig, Args: []string{"--server", s.URL()}}.WaitEstablished(t, args...)
}
