package framework

import (
	"context"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// StartControllerManager runs mco-controller-manager against the
// apiserver and waits until it is ready. It is stopped when the test ends,
// and its log shown if the test failed.
func StartControllerManager(t testing.TB, api *APIServer, extraArgs ...string) {
	t.Helper()
	Binary(t, "mco-controller-manager")
	c, err := localcluster.StartControllerManager(context.Background(), BinDir(t),
		localcluster.ControllerManagerKubeconfig(api.DataDir), api.DataDir, extraArgs...)
	if c == nil {
		t.Fatalf("start mco-controller-manager: %v", err)
	}
	t.Cleanup(func() {
		c.Process.Stop(15 * time.Second)
		if t.Failed() {
			t.Logf("mco-controller-manager log (%s):\n%s", c.Process.Log, c.Process.LogTail(logTail))
		}
	})
	if err != nil {
		t.Fatalf("mco-controller-manager not ready: %v", err)
	}
}
