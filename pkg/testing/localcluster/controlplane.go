package localcluster

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"

	"github.com/mco-org/mco/pkg/apiserver/encryption"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/join"
	joincmd "github.com/mco-org/mco/pkg/kubectlmco/join"
)

// ControlPlane is mco's control plane: mco-apiserver on embedded etcd,
// mco-scheduler and mco-controller-manager.
type ControlPlane struct {
	Port       int      `json:"port"`
	DataDir    string   `json:"dataDir"`
	Kubeconfig string   `json:"kubeconfig"`
	APIServer  *Process `json:"apiServer"`
	// SchedulerPort serves mco-scheduler's /healthz, /readyz and /metrics.
	SchedulerPort int      `json:"schedulerPort"`
	Scheduler     *Process `json:"scheduler"`
	// ControllerManagerPort serves mco-controller-manager's /healthz,
	// /readyz and /metrics.
	ControllerManagerPort int      `json:"controllerManagerPort"`
	ControllerManager     *Process `json:"controllerManager"`
	// HA is set when the control plane is highly available (ha.go).
	HA *HA `json:"ha,omitempty"`
	// Etcd is set when mco-apiserver runs on an etcd process rather than
	// its embedded one.
	Etcd *Process `json:"etcd,omitempty"`
}

// URL is mco-apiserver's address.
func (c *ControlPlane) URL() string { return APIServerURL(c.Port) }

// Processes lists the control plane's processes, the apiserver last.
func (c *ControlPlane) Processes() []*Process {
	if c.HA != nil {
		return c.HA.processes()
	}
	out := []*Process{c.ControllerManager, c.Scheduler, c.APIServer}
	if c.Etcd != nil {
		out = append(out, c.Etcd)
	}
	return out
}

// ControllerManagerURL is the base URL of mco-controller-manager's health
// and metrics.
func (c *ControlPlane) ControllerManagerURL() string { return HealthURL(c.ControllerManagerPort) }

// SchedulerURL is the base URL of mco-scheduler's health and metrics.
func (c *ControlPlane) SchedulerURL() string { return HealthURL(c.SchedulerPort) }

// Client rates of the control plane's components: everything runs on one
// machine, so client-side throttling would only hide what the servers can do.
const (
	clientQPS   = "--kube-api-qps=1000"
	clientBurst = "--kube-api-burst=2000"
)

// startControlPlane starts mco-apiserver, on its embedded etcd or, with
// externalEtcd, on an etcd process of its own, then the components.
func startControlPlane(ctx context.Context, env *Env, externalEtcd bool, extraArgs []string) (*ControlPlane, error) {
	c := &ControlPlane{DataDir: filepath.Join(env.Dir, "mco")}
	c.Kubeconfig = APIServerKubeconfig(c.DataDir)
	logDir := filepath.Join(env.Dir, "logs", "mco")
	// Secrets, member credentials among them, are encrypted in etcd.
	encryptionConfig := filepath.Join(c.DataDir, "encryption.yaml")
	if err := encryption.EnsureConfig(encryptionConfig); err != nil {
		return c, err
	}
	// A proxied call to a paused member fails within seconds, not 30.
	args := []string{"--cluster-proxy-timeout=5s", "--encryption-provider-config=" + encryptionConfig}
	if externalEtcd {
		etcd, urls, err := StartEtcdCluster(ctx, env.BinDir, filepath.Join(env.Dir, "mco-etcd"), filepath.Join(logDir, "etcd"), 1)
		if len(etcd) > 0 {
			c.Etcd = etcd[0]
		}
		if err != nil {
			return c, err
		}
		args = append(args, "--etcd-servers="+strings.Join(urls, ","))
	}
	api, err := StartAPIServer(ctx, env.BinDir, c.DataDir, logDir, append(args, extraArgs...)...)
	if api != nil {
		c.Port, c.APIServer = api.Port, api.Process
	}
	if err != nil {
		return c, err
	}
	// Each component runs as its own least-privileged identity.
	return c, c.startComponents(ctx, env, logDir, SchedulerKubeconfig(c.DataDir), ControllerManagerKubeconfig(c.DataDir))
}

// startComponents starts mco-scheduler and mco-controller-manager with
// the given kubeconfigs and records them in c, also when one fails to
// become ready, so that it is stopped with the rest.
func (c *ControlPlane) startComponents(ctx context.Context, env *Env, logDir, schedulerKubeconfig, controllerManagerKubeconfig string) error {
	schedArgs := append(env.Timing.leaderFlags(), clientQPS, clientBurst)
	sched, err := StartScheduler(ctx, env.BinDir, schedulerKubeconfig, logDir, append(schedArgs, env.ComponentArgs["mco-scheduler"]...)...)
	if sched != nil {
		c.SchedulerPort, c.Scheduler = sched.Port, sched.Process
	}
	if err != nil {
		return err
	}
	cmArgs := append(env.Timing.controllerManagerFlags(), clientQPS, clientBurst)
	cm, err := StartControllerManager(ctx, env.BinDir, controllerManagerKubeconfig, logDir, append(cmArgs, env.ComponentArgs["mco-controller-manager"]...)...)
	if cm != nil {
		c.ControllerManagerPort, c.ControllerManager = cm.Port, cm.Process
	}
	return err
}

// joinAll registers every member with mco as a Push cluster, through the
// code path of `kubectl mco join`, then waits until mco reports each one
// Ready with its nodes and complete API list, so that what is applied next
// is scheduled against every member. Bare members have no token
// controller: mco's token comes from the TokenRequest API.
func (e *Env) joinAll(ctx context.Context, bare bool) error {
	mco, err := RESTConfig(e.MCO.Kubeconfig)
	if err != nil {
		return err
	}
	for _, m := range e.Members {
		if m.Spec.Pull {
			if err := e.startAgent(ctx, m, mco); err != nil {
				return err
			}
			continue
		}
		member, err := RESTConfig(m.Kubeconfig)
		if err != nil {
			return err
		}
		_, err = joincmd.Run(ctx, mco, member, joincmd.Options{
			Name:            m.Spec.Name,
			Region:          m.Spec.Region,
			Zones:           []string{m.Spec.Zone},
			Labels:          m.Spec.Labels,
			UseTokenRequest: bare,
		}, io.Discard)
		if err != nil {
			return fmt.Errorf("join %s: %w", m.Spec.Name, err)
		}
	}
	client, err := mcoclient.NewForConfig(mco)
	if err != nil {
		return err
	}
	for _, m := range e.Members {
		if _, err := join.WaitReady(ctx, client, m.Spec.Name, 2*time.Minute); err != nil {
			return err
		}
	}
	return nil
}
