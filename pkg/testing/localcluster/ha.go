package localcluster

import (
	"context"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/mco-org/mco/pkg/apiserver/encryption"
)

// HA is what a highly available control plane adds to ControlPlane (whose
// APIServer, Scheduler and ControllerManager are the first replicas and
// whose Port and kubeconfigs are the load balancer's): an etcd cluster, a
// second mco-apiserver sharing the first's PKI, a standby of each
// component, and the load balancer in front of the apiservers.
type HA struct {
	Etcd     []*Process `json:"etcd"`
	EtcdURLs []string   `json:"etcdURLs"`
	// APIServers are every replica, the first included.
	APIServers     []*Process `json:"apiServers"`
	APIServerPorts []int      `json:"apiServerPorts"`
	// Schedulers and ControllerManagers are every replica.
	Schedulers         []*Process `json:"schedulers"`
	ControllerManagers []*Process `json:"controllerManagers"`
	LB                 *Process   `json:"lb"`
}

// processes lists the HA processes in stop order.
func (h *HA) processes() []*Process {
	out := append(append([]*Process{}, h.ControllerManagers...), h.Schedulers...)
	out = append(out, h.LB)
	out = append(out, h.APIServers...)
	return append(out, h.Etcd...)
}

// haReplicas is how many of each the HA control plane runs.
const haReplicas = 2

// startHAControlPlane starts the HA control plane: 3 etcd members, two
// mco-apiservers (the second trusting, issuing from and signing with the
// first's CA and ServiceAccount key), lbCommand listening in front of them
// (it gets --listen=ADDR and one --backend=ADDR each), and two of each
// component, through the load balancer.
func startHAControlPlane(ctx context.Context, env *Env, lbCommand []string) (*ControlPlane, error) {
	if len(lbCommand) == 0 {
		return nil, fmt.Errorf("a highly available control plane needs a load balancer command")
	}
	c := &ControlPlane{DataDir: filepath.Join(env.Dir, "mco"), HA: &HA{}}
	logDir := filepath.Join(env.Dir, "logs", "mco")
	var err error
	c.HA.Etcd, c.HA.EtcdURLs, err = StartEtcdCluster(ctx, env.BinDir, filepath.Join(env.Dir, "mco-etcd"), filepath.Join(logDir, "etcd"), 3)
	if err != nil {
		return c, err
	}
	encryptionConfig := filepath.Join(env.Dir, "encryption.yaml")
	if err := encryption.EnsureConfig(encryptionConfig); err != nil {
		return c, err
	}
	common := []string{"--cluster-proxy-timeout=5s", "--encryption-provider-config=" + encryptionConfig,
		"--etcd-servers=" + strings.Join(c.HA.EtcdURLs, ",")}
	pki := filepath.Join(c.DataDir, "pki")
	shared := []string{"--client-ca-file=" + filepath.Join(pki, "ca.crt"), "--client-ca-key-file=" + filepath.Join(pki, "ca.key"),
		"--service-account-signing-key-file=" + filepath.Join(pki, "sa.key")}
	for i := 0; i < haReplicas; i++ {
		dataDir, args := c.DataDir, common
		if i > 0 {
			dataDir, args = fmt.Sprintf("%s-%d", c.DataDir, i), append(append([]string{}, common...), shared...)
		}
		api, err := StartAPIServer(ctx, env.BinDir, dataDir, filepath.Join(logDir, fmt.Sprintf("apiserver-%d", i)), args...)
		if api != nil {
			c.HA.APIServers = append(c.HA.APIServers, api.Process)
			c.HA.APIServerPorts = append(c.HA.APIServerPorts, api.Port)
		}
		if err != nil {
			return c, err
		}
	}
	c.APIServer = c.HA.APIServers[0]
	if c.Port, c.HA.LB, err = startLB(ctx, lbCommand, c.HA.APIServerPorts, logDir); err != nil {
		return c, err
	}
	lbDir := filepath.Join(c.DataDir, "lb")
	url := APIServerURL(c.Port)
	if c.Kubeconfig, err = throughLB(APIServerKubeconfig(c.DataDir), lbDir, url); err != nil {
		return c, err
	}
	schedConfig, err := throughLB(SchedulerKubeconfig(c.DataDir), lbDir, url)
	if err != nil {
		return c, err
	}
	cmConfig, err := throughLB(ControllerManagerKubeconfig(c.DataDir), lbDir, url)
	if err != nil {
		return c, err
	}
	err = c.startComponents(ctx, env, logDir, schedConfig, cmConfig)
	// The HA lists are what is stopped: the first replicas go in first.
	if c.Scheduler != nil {
		c.HA.Schedulers = append(c.HA.Schedulers, c.Scheduler)
	}
	if c.ControllerManager != nil {
		c.HA.ControllerManagers = append(c.HA.ControllerManagers, c.ControllerManager)
	}
	if err != nil {
		return c, err
	}
	for _, list := range []*[]*Process{&c.HA.Schedulers, &c.HA.ControllerManagers} {
		s, err := StartStandby(ctx, (*list)[0], filepath.Join(logDir, "standby"))
		if s != nil {
			*list = append(*list, s.Process)
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

// startLB runs the load balancer on a free port in front of the
// apiservers' ports and waits until it accepts connections.
func startLB(ctx context.Context, command []string, ports []int, logDir string) (int, *Process, error) {
	port, err := freePort()
	if err != nil {
		return 0, nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	args := append(append([]string{}, command[1:]...), "--listen="+addr)
	for _, p := range ports {
		args = append(args, "--backend="+net.JoinHostPort("127.0.0.1", strconv.Itoa(p)))
	}
	p, err := startProcess("mco-lb", command[0], args, logDir)
	if err != nil {
		return 0, nil, err
	}
	deadline := time.Now().Add(readyTimeout)
	for {
		conn, err := net.DialTimeout("tcp", addr, time.Second)
		if err == nil {
			conn.Close()
			return port, p, nil
		}
		if time.Now().After(deadline) || !p.Running() || ctx.Err() != nil {
			return port, p, fmt.Errorf("load balancer did not listen on %s; see %s", addr, p.Log)
		}
		time.Sleep(100 * time.Millisecond)
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
