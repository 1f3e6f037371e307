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
	"time"

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
	os.Exit(run(m))
}

func run(m *testing.M) int {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ha.binDir = filepath.Join(root, "_output", "bin")
	lb := filepath.Join(ha.binDir, "mco-localup")
	if _, err := os.Stat(lb); err != nil {
		fmt.Fprintf(os.Stderr, "ha: %s missing: make test builds it (go build -o %s ./hack/localup)\n", lb, lb)
		return 1
	}
	dir, err := os.MkdirTemp("", "mco-ha-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	start := time.Now()
	ha.env, err = localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: ha.binDir, BareMembers: true, ControlPlane: true,
		Members: []localcluster.MemberSpec{{Name: "member1"}},
		HA:      true, LBCommand: []string{lb, "lb"},
	})
	cancel()
	code := 1
	if err != nil {
		fmt.Fprintln(os.Stderr, "ha: bring up:", err)
	} else {
		ha.admin = ha.env.MCO.Kubeconfig
		fmt.Printf("ha: 3 etcd members, 2 mco-apiservers behind %s, 2 schedulers, 2 controller-managers and a member up in %s\n",
			ha.env.MCO.URL(), time.Since(start).Round(time.Millisecond))
		code = m.Run()
	}
	if ha.env != nil {
		ha.env.Down()
	}
	if code == 0 {
		_ = os.RemoveAll(dir)
	} else {
		fmt.Fprintf(os.Stderr, "ha: logs kept in %s\n", filepath.Join(dir, "logs"))
	}
	return code
}
