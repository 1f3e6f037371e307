// Package ha runs mco highly available on one machine, as make local-up-ha
// does: a 3-member etcd cluster, two mco-apiserver replicas sharing one
// PKI behind a TCP load balancer whose address the kubeconfigs name, two
// mco-schedulers and two mco-controller-managers, and one bare member
// cluster; then takes parts of it away.
package ha

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// setup is the running HA installation.
type setup struct {
	binDir string
	env    *localcluster.Env
	// admin is the admin kubeconfig, through the load balancer.
	admin string
}

var ha setup

func TestMain(m *testing.M) {
	os.Exit(localcluster.RunSuite(m, "ha", bringUp))
}

func bringUp(ctx context.Context, dir, binDir string) (*localcluster.Env, string, error) {
	ha.binDir = binDir
	lb := filepath.Join(binDir, "mco-localup")
	if _, err := os.Stat(lb); err != nil {
		return nil, "", fmt.Errorf("%s missing: make test builds it (go build -o %s ./hack/localup)", lb, lb)
	}
	var err error
	ha.env, err = localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: binDir, BareMembers: true, ControlPlane: true,
		Members: []localcluster.MemberSpec{{Name: "member1"}},
		HA:      true, LBCommand: []string{lb, "lb"},
	})
	if err != nil {
		return ha.env, "", err
	}
	ha.admin = ha.env.MCO.Kubeconfig
	return ha.env, fmt.Sprintf("3 etcd members, 2 mco-apiservers behind %s, 2 schedulers, 2 controller-managers and a member",
		ha.env.MCO.URL()), nil
}
