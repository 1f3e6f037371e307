// Package upgrade upgrades a member cluster in place, one minor at a time,
// under a running mco, as fleets are upgraded: member2 starts on
// Kubernetes v1.35, moves to v1.36 and then to mco's own version, its
// kube-apiserver first on the same etcd data, then its
// kube-controller-manager and kube-scheduler (make test-upgrade; it needs
// those versions' binaries, which it builds once and caches).
package upgrade

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/cli"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// The versions member2 goes through; the last one is mco's own ("").
var steps = []string{"v1.35.4", "v1.36.3", ""}

// suite is the running environment.
var suite struct {
	binDir string
	env    *localcluster.Env
}

func TestMain(m *testing.M) {
	os.Exit(localcluster.RunSuite(m, "upgrade", bringUp))
}

func bringUp(ctx context.Context, dir, binDir string) (*localcluster.Env, string, error) {
	suite.binDir = binDir
	for _, v := range steps[:len(steps)-1] {
		if _, err := os.Stat(filepath.Join(binDir, "kube-"+v, "kube-apiserver")); err != nil {
			return nil, "", fmt.Errorf("no Kubernetes %s binaries: make test-upgrade builds them (KUBE_VERSION=%s hack/build-tools.sh kube-apiserver kube-controller-manager kube-scheduler)", v, v)
		}
	}
	members := localcluster.DefaultMembers()[:2]
	members[1].Version = steps[0]
	env, err := localcluster.Up(ctx, localcluster.Options{Dir: dir, BinDir: binDir, ControlPlane: true, Members: members})
	suite.env = env
	if err != nil {
		return env, "", err
	}
	return env, fmt.Sprintf("mco, member1 (its own version) and member2 on %s", steps[0]), nil
}

func kubectl(t *testing.T, stdin string, args ...string) string {
	t.Helper()
	return mcoKubectl().Must(t, stdin, args...)
}

func kubectlErr(stdin string, args ...string) (string, error) {
	return mcoKubectl().Run(stdin, args...)
}

func mcoKubectl() cli.Kubectl {
	return cli.Kubectl{Bin: filepath.Join(suite.binDir, "kubectl"), Kubeconfig: suite.env.MCO.Kubeconfig, Args: []string{"--request-timeout=10s"}}
}

func eventually(t *testing.T, timeout time.Duration, what string, cond func(ctx context.Context) (bool, string)) {
	t.Helper()
	cli.Eventually(t, timeout, what, cond)
}
