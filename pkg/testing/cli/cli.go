// Package cli holds what end-to-end suites share to drive a running
// system: the real kubectl, and waiting for a condition.
package cli

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"
)

// Kubectl runs the kubectl binary Bin against Kubeconfig, with Args
// before each call's own.
type Kubectl struct {
	Bin, Kubeconfig string
	Args            []string
}

// Run runs kubectl with stdin and returns its combined output.
func (k Kubectl) Run(stdin string, args ...string) (string, error) {
	all := append(append([]string{"--kubeconfig", k.Kubeconfig, "--cache-dir", CacheDir(k.Kubeconfig)}, k.Args...), args...)
	cmd := exec.Command(k.Bin, all...)
	cmd.Stdin = strings.NewReader(stdin)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := cmd.Run()
	return out.String(), err
}

// CacheDir is where kubectl keeps its discovery and HTTP caches for the
// server of kubeconfig: beside the kubeconfig, not in $HOME/.kube/cache.
// The shared cache is keyed by host and port only, and test servers take
// ports the kernel hands out: a server on a port another one (a member's
// kube-apiserver, say) had before would be described to kubectl by the
// other's cached discovery.
func CacheDir(kubeconfig string) string {
	return filepath.Join(filepath.Dir(kubeconfig), "kubectl-cache")
}

// Must runs kubectl and fails t when it fails.
func (k Kubectl) Must(t testing.TB, stdin string, args ...string) string {
	t.Helper()
	out, err := k.Run(stdin, args...)
	if err != nil {
		t.Fatalf("kubectl %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return out
}

// WaitEstablished waits until the CRDs args name (e.g.
// "crd/x.example.com", or "crd", "--all") are Established. kubectl wait
// fails at once, instead of waiting, on a CRD whose status has no
// conditions yet (right after its create), so it is tried again.
func (k Kubectl) WaitEstablished(t testing.TB, args ...string) {
	t.Helper()
	wait := append([]string{"wait", "--for=condition=Established", "--timeout=10s"}, args...)
	Eventually(t, 60*time.Second, strings.Join(args, " ")+" Established", func(context.Context) (bool, string) {
		out, err := k.Run("", wait...)
		return err == nil, out
	})
}

// Eventually polls cond every 250ms until it holds, failing t with its
// last message after timeout; a wait of over a second is logged with its
// length, so that a slow test shows where its time went. A message from a call cut short by the
// timeout itself (its requests failing with the context, or refused by a
// rate limiter that would pass the deadline) does not replace the one
// before.
func Eventually(t testing.TB, timeout time.Duration, what string, cond func(ctx context.Context) (bool, string)) {
	t.Helper()
	last := ""
	start := time.Now()
	err := wait.PollUntilContextTimeout(context.Background(), 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		ok, msg := cond(ctx)
		if last == "" || !nearDeadline(ctx) {
			last = msg
		}
		return ok, nil
	})
	if err != nil {
		t.Fatalf("%s: not within %s: %s", what, timeout, last)
	}
	if d := time.Since(start); d > time.Second {
		t.Logf("%s: after %s", what, d.Round(100*time.Millisecond))
	}
}

// nearDeadline tells whether ctx is done or within a second of its
// deadline.
func nearDeadline(ctx context.Context) bool {
	dl, ok := ctx.Deadline()
	return ctx.Err() != nil || (ok && time.Until(dl) < time.Second)
}
