// Package ha runs mco highly available on one machine: a 3-member etcd
// cluster, two mco-apiserver replicas sharing one PKI behind a TCP load
// balancer whose address the kubeconfigs name, two mco-schedulers and two
// mco-controller-managers, and one bare member cluster; then takes parts of
// it away.
package ha

import (
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/join"
	joincmd "github.com/mco-org/mco/pkg/kubectlmco/join"
	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/pkg/testing/tcplb"
)

// setup is the running HA installation.
type setup struct {
	dir, binDir string
	members     *localcluster.Env
	etcd        []*localcluster.Process
	apiservers  []*localcluster.Component
	lb          *tcplb.LB
	// kubeconfigs through the load balancer, by identity.
	admin, scheduler, controllerManager string
	schedulers, controllerManagers      []*localcluster.Component
}

var ha setup

func TestMain(m *testing.M) {
	code := run(m)
	os.Exit(code)
}

func run(m *testing.M) int {
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "mco-ha-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ha.dir, ha.binDir = dir, filepath.Join(root, "_output", "bin")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	start := time.Now()
	err = ha.up(ctx)
	cancel()
	code := 1
	if err != nil {
		fmt.Fprintln(os.Stderr, "ha: bring up:", err)
	} else {
		fmt.Printf("ha: 3 etcd, 2 mco-apiservers behind %s, 2 schedulers, 2 controller-managers and a member up in %s\n",
			ha.lb.Addr(), time.Since(start).Round(time.Millisecond))
		code = m.Run()
	}
	ha.down()
	if code == 0 {
		_ = os.RemoveAll(dir)
	} else {
		fmt.Fprintf(os.Stderr, "ha: logs kept in %s\n", filepath.Join(dir, "logs"))
	}
	return code
}

func (s *setup) up(ctx context.Context) error {
	logs := filepath.Join(s.dir, "logs")
	var err error
	s.members, err = localcluster.Up(ctx, localcluster.Options{
		Dir: filepath.Join(s.dir, "members"), BinDir: s.binDir, BareMembers: true,
		Members: []localcluster.MemberSpec{{Name: "member1"}},
	})
	if err != nil {
		return err
	}
	etcd, urls, err := localcluster.StartEtcdCluster(ctx, s.binDir, filepath.Join(s.dir, "etcd"), filepath.Join(logs, "etcd"), 3)
	if err != nil {
		return err
	}
	s.etcd = etcd
	servers := "--etcd-servers=" + strings.Join(urls, ",")
	first := filepath.Join(s.dir, "mco-0")
	pki := filepath.Join(first, "pki")
	a, err := localcluster.StartAPIServer(ctx, s.binDir, first, filepath.Join(logs, "mco-apiserver-0"), servers)
	if a != nil {
		s.apiservers = append(s.apiservers, a)
	}
	if err != nil {
		return err
	}
	// The second replica trusts, issues from and signs with the first's
	// CA and ServiceAccount key: one PKI for both.
	b, err := localcluster.StartAPIServer(ctx, s.binDir, filepath.Join(s.dir, "mco-1"), filepath.Join(logs, "mco-apiserver-1"), servers,
		"--client-ca-file="+filepath.Join(pki, "ca.crt"), "--client-ca-key-file="+filepath.Join(pki, "ca.key"),
		"--service-account-signing-key-file="+filepath.Join(pki, "sa.key"))
	if b != nil {
		s.apiservers = append(s.apiservers, b)
	}
	if err != nil {
		return err
	}
	var backends []string
	for _, c := range s.apiservers {
		backends = append(backends, net.JoinHostPort("127.0.0.1", strconv.Itoa(c.Port)))
	}
	if s.lb, err = tcplb.Start("127.0.0.1:0", backends); err != nil {
		return err
	}
	url := "https://" + s.lb.Addr()
	for _, k := range []struct {
		out *string
		in  string
	}{
		{&s.admin, localcluster.APIServerKubeconfig(first)},
		{&s.scheduler, localcluster.SchedulerKubeconfig(first)},
		{&s.controllerManager, localcluster.ControllerManagerKubeconfig(first)},
	} {
		if *k.out, err = throughLB(k.in, filepath.Join(s.dir, "lb"), url); err != nil {
			return err
		}
	}
	if err := s.startComponents(ctx, logs); err != nil {
		return err
	}
	return s.join(ctx)
}

// startComponents starts a leading and a standby mco-scheduler and
// mco-controller-manager, all through the load balancer.
func (s *setup) startComponents(ctx context.Context, logs string) error {
	sched, err := localcluster.StartScheduler(ctx, s.binDir, s.scheduler, filepath.Join(logs, "scheduler-0"))
	if sched != nil {
		s.schedulers = append(s.schedulers, sched)
	}
	if err != nil {
		return err
	}
	cm, err := localcluster.StartControllerManager(ctx, s.binDir, s.controllerManager, filepath.Join(logs, "controller-manager-0"),
		"--cluster-status-update-frequency=2s", "--cluster-failure-threshold=10s", "--cluster-success-threshold=5s")
	if cm != nil {
		s.controllerManagers = append(s.controllerManagers, cm)
	}
	if err != nil {
		return err
	}
	for _, p := range []struct {
		list *[]*localcluster.Component
		log  string
	}{{&s.schedulers, "scheduler-1"}, {&s.controllerManagers, "controller-manager-1"}} {
		c, err := localcluster.StartStandby(ctx, (*p.list)[0].Process, filepath.Join(logs, p.log))
		if c != nil {
			*p.list = append(*p.list, c)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// join registers the member through the load balancer, as kubectl mco
// join does, and waits until mco reports it Ready.
func (s *setup) join(ctx context.Context) error {
	mco, err := localcluster.RESTConfig(s.admin)
	if err != nil {
		return err
	}
	member, err := localcluster.RESTConfig(s.members.Members[0].Kubeconfig)
	if err != nil {
		return err
	}
	if _, err := joincmd.Run(ctx, mco, member, joincmd.Options{Name: "member1", UseTokenRequest: true}, io.Discard); err != nil {
		return fmt.Errorf("join member1: %w", err)
	}
	client, err := mcoclient.NewForConfig(mco)
	if err != nil {
		return err
	}
	_, err = join.WaitReady(ctx, client, "member1", 2*time.Minute)
	return err
}

// down stops what up started, by pid.
func (s *setup) down() {
	for _, list := range [][]*localcluster.Component{s.controllerManagers, s.schedulers, s.apiservers} {
		for _, c := range list {
			c.Stop(10 * time.Second)
		}
	}
	if s.lb != nil {
		_ = s.lb.Close()
	}
	for _, p := range s.etcd {
		p.Stop(10 * time.Second)
	}
	if s.members != nil {
		s.members.Down()
	}
}

// throughLB writes a copy of kubeconfig into dir whose clusters are
// reached at url.
func throughLB(kubeconfig, dir, url string) (string, error) {
	cfg, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		return "", err
	}
	for _, c := range cfg.Clusters {
		c.Server = url
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	out := filepath.Join(dir, filepath.Base(kubeconfig))
	return out, clientcmd.WriteToFile(*cfg, out)
}
