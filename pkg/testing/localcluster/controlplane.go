package localcluster

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/apiserver/pki"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/join"
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
}

// URL is mco-apiserver's address.
func (c *ControlPlane) URL() string { return fmt.Sprintf("https://127.0.0.1:%d", c.Port) }

// Processes lists the control plane's processes, the apiserver last.
func (c *ControlPlane) Processes() []*Process {
	return []*Process{c.ControllerManager, c.Scheduler, c.APIServer}
}

// ControllerManagerURL is the base URL of mco-controller-manager's health
// and metrics.
func (c *ControlPlane) ControllerManagerURL() string {
	return fmt.Sprintf("http://127.0.0.1:%d", c.ControllerManagerPort)
}

// SchedulerURL is the base URL of mco-scheduler's health and metrics.
func (c *ControlPlane) SchedulerURL() string {
	return fmt.Sprintf("http://127.0.0.1:%d", c.SchedulerPort)
}

// Client rates of the control plane's components: everything runs on one
// machine, so client-side throttling would only hide what the servers can do.
const (
	clientQPS   = "--kube-api-qps=1000"
	clientBurst = "--kube-api-burst=2000"
)

func startControlPlane(ctx context.Context, env *Env) (*ControlPlane, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	c := &ControlPlane{Port: port, DataDir: filepath.Join(env.Dir, "mco")}
	c.Kubeconfig = filepath.Join(c.DataDir, "admin.kubeconfig")
	if err := os.MkdirAll(c.DataDir, 0o755); err != nil {
		return nil, err
	}
	c.APIServer, err = startProcess("mco-apiserver", filepath.Join(env.BinDir, "mco-apiserver"), []string{
		"--data-dir=" + c.DataDir,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
	}, filepath.Join(env.Dir, "logs", "mco"))
	if err != nil {
		return nil, err
	}
	files := pki.FilesIn(filepath.Join(c.DataDir, "pki"))
	// The PKI appears once the server has started; wait for it, then readyz.
	deadline := time.Now().Add(60 * time.Second)
	for {
		if _, err := os.Stat(c.Kubeconfig); err == nil {
			break
		}
		if time.Now().After(deadline) || !c.APIServer.Running() {
			return c, fmt.Errorf("mco-apiserver did not start; see %s", c.APIServer.Log)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if err := waitHTTPS(ctx, c.URL()+"/readyz", files, 60*time.Second, c.APIServer); err != nil {
		return c, fmt.Errorf("mco-apiserver: %w", err)
	}
	if c.SchedulerPort, err = freePort(); err != nil {
		return c, err
	}
	c.Scheduler, err = startProcess("mco-scheduler", filepath.Join(env.BinDir, "mco-scheduler"), []string{
		"--kubeconfig=" + c.Kubeconfig,
		"--bind-address=127.0.0.1:" + strconv.Itoa(c.SchedulerPort),
		clientQPS, clientBurst,
	}, filepath.Join(env.Dir, "logs", "mco"))
	if err != nil {
		return c, err
	}
	if err := waitHTTP(ctx, http.DefaultClient, c.SchedulerURL()+"/readyz", 60*time.Second, c.Scheduler); err != nil {
		return c, fmt.Errorf("mco-scheduler: %w", err)
	}
	if c.ControllerManagerPort, err = freePort(); err != nil {
		return c, err
	}
	c.ControllerManager, err = startProcess("mco-controller-manager", filepath.Join(env.BinDir, "mco-controller-manager"), []string{
		"--kubeconfig=" + c.Kubeconfig,
		"--bind-address=127.0.0.1:" + strconv.Itoa(c.ControllerManagerPort),
		// Short so that demos and tests see member changes quickly.
		"--cluster-status-update-frequency=2s",
		clientQPS, clientBurst,
	}, filepath.Join(env.Dir, "logs", "mco"))
	if err != nil {
		return c, err
	}
	if err := waitHTTP(ctx, http.DefaultClient, c.ControllerManagerURL()+"/readyz", 60*time.Second, c.ControllerManager); err != nil {
		return c, fmt.Errorf("mco-controller-manager: %w", err)
	}
	return c, nil
}

// joinAll registers every member with mco as a Push cluster. Bare members
// have no token controller: mco's token comes from the TokenRequest API.
func (e *Env) joinAll(ctx context.Context, bare bool) error {
	cfg, err := RESTConfig(e.MCO.Kubeconfig)
	if err != nil {
		return err
	}
	mcoKube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	mco, err := mcoclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	ca, err := os.ReadFile(e.PKI.CACert)
	if err != nil {
		return err
	}
	for _, m := range e.Members {
		member, err := m.Client()
		if err != nil {
			return err
		}
		_, err = join.Join(ctx, join.Clients{MCOKube: mcoKube, MCO: mco, Member: member}, join.Options{
			Name:            m.Spec.Name,
			APIEndpoint:     m.URL(),
			CABundle:        ca,
			Region:          m.Spec.Region,
			Zones:           []string{m.Spec.Zone},
			Labels:          m.Spec.Labels,
			UseTokenRequest: bare,
		})
		if err != nil {
			return fmt.Errorf("join %s: %w", m.Spec.Name, err)
		}
	}
	return nil
}
