package localcluster

import (
	"context"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/apiserver/pki"
)

// This file is the one place that knows how mco's components are launched:
// binary, flags, loopback port and readiness. The control plane of
// `make local-up` and the e2e tests, and the integration test framework,
// all start them through these functions.

// Component is a started mco component and the loopback port it serves on.
// On a readiness error the Start functions return it too, so that the
// caller can stop the process and read its log.
type Component struct {
	*Process
	Port int
}

// readyTimeout bounds each readiness wait of a component.
const readyTimeout = 60 * time.Second

// APIServerKubeconfig is the admin kubeconfig mco-apiserver writes into its
// data directory.
func APIServerKubeconfig(dataDir string) string {
	return filepath.Join(dataDir, "admin.kubeconfig")
}

// SchedulerKubeconfig and ControllerManagerKubeconfig are the kubeconfigs
// mco-apiserver writes for the components' own identities.
func SchedulerKubeconfig(dataDir string) string {
	return filepath.Join(dataDir, "scheduler.kubeconfig")
}

// ControllerManagerKubeconfig: see SchedulerKubeconfig.
func ControllerManagerKubeconfig(dataDir string) string {
	return filepath.Join(dataDir, "controller-manager.kubeconfig")
}

// APIServerURL is the base URL of mco-apiserver on port.
func APIServerURL(port int) string { return fmt.Sprintf("https://127.0.0.1:%d", port) }

// HealthURL is the base URL of the health and metrics of mco-scheduler or
// mco-controller-manager on port.
func HealthURL(port int) string { return fmt.Sprintf("http://127.0.0.1:%d", port) }

// StartAPIServer starts mco-apiserver from binDir on a free loopback port,
// with its data (PKI, admin kubeconfig, embedded etcd) in dataDir and its
// log in logDir, and waits until /readyz answers.
func StartAPIServer(ctx context.Context, binDir, dataDir, logDir string, extraArgs ...string) (*Component, error) {
	// The kubeconfig names the CA to trust, the server's own or a shared
	// one, and the admin's certificate.
	return startAPIServer(ctx, binDir, dataDir, logDir, extraArgs, APIServerKubeconfig(dataDir), func() (*http.Client, error) {
		cfg, err := RESTConfig(APIServerKubeconfig(dataDir))
		if err != nil {
			return nil, err
		}
		client, err := rest.HTTPClientFor(cfg)
		if err != nil {
			return nil, fmt.Errorf("client of %s: %w", APIServerKubeconfig(dataDir), err)
		}
		return client, nil
	})
}

// StartAggregatedAPIServer starts mco-apiserver in aggregated mode behind
// the host cluster of hostKubeconfig, as StartAPIServer does otherwise. It
// writes no kubeconfig: clients go through the host. Readiness is read
// anonymously, trusting the CA it creates under dataDir/pki, the caBundle
// of its APIServices.
func StartAggregatedAPIServer(ctx context.Context, binDir, dataDir, logDir, hostKubeconfig string, extraArgs ...string) (*Component, error) {
	ca := pki.FilesIn(filepath.Join(dataDir, "pki")).CACert
	args := append([]string{"--mode=aggregated", "--kubeconfig=" + hostKubeconfig}, extraArgs...)
	return startAPIServer(ctx, binDir, dataDir, logDir, args, ca, func() (*http.Client, error) {
		return rest.HTTPClientFor(&rest.Config{TLSClientConfig: rest.TLSClientConfig{CAFile: ca}})
	})
}

// startAPIServer starts mco-apiserver, waits until it has written
// startedFile, then until /readyz answers 200 to the client of newClient.
func startAPIServer(ctx context.Context, binDir, dataDir, logDir string, extraArgs []string, startedFile string, newClient func() (*http.Client, error)) (*Component, error) {
	return retryOnPortClash(func() (*Component, error) {
		return startAPIServerOnce(ctx, binDir, dataDir, logDir, extraArgs, startedFile, newClient)
	})
}

// startAPIServerOnce is one attempt of startAPIServer on a fresh port.
func startAPIServerOnce(ctx context.Context, binDir, dataDir, logDir string, extraArgs []string, startedFile string, newClient func() (*http.Client, error)) (*Component, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dataDir, 0o755); err != nil {
		return nil, fmt.Errorf("create data dir: %w", err)
	}
	args := append([]string{
		"--data-dir=" + dataDir,
		"--bind-address=127.0.0.1",
		"--secure-port=" + strconv.Itoa(port),
	}, extraArgs...)
	p, err := startProcess("mco-apiserver", filepath.Join(binDir, "mco-apiserver"), args, logDir)
	if err != nil {
		return nil, err
	}
	c := &Component{Process: p, Port: port}
	deadline := time.Now().Add(readyTimeout)
	for {
		if _, err := os.Stat(startedFile); err == nil {
			break
		}
		if time.Now().After(deadline) || !p.Running() {
			return c, portClash(fmt.Errorf("mco-apiserver did not start; see %s", p.Log), p)
		}
		time.Sleep(200 * time.Millisecond)
	}
	client, err := newClient()
	if err != nil {
		return c, err
	}
	client.Timeout = 5 * time.Second
	if err := waitHTTP(ctx, client, APIServerURL(port)+"/readyz", readyTimeout, p); err != nil {
		return c, portClash(fmt.Errorf("mco-apiserver: %w", err), p)
	}
	return c, nil
}

// StartScheduler starts mco-scheduler from binDir against the apiserver of
// kubeconfig, serving health and metrics on a free loopback port, and waits
// until it is ready (caches synced).
func StartScheduler(ctx context.Context, binDir, kubeconfig, logDir string, extraArgs ...string) (*Component, error) {
	return startClientComponent(ctx, "mco-scheduler", binDir, kubeconfig, logDir, extraArgs)
}

// StartControllerManager starts mco-controller-manager from binDir against
// the apiserver of kubeconfig, serving health and metrics on a free loopback
// port, and waits until it is ready.
func StartControllerManager(ctx context.Context, binDir, kubeconfig, logDir string, extraArgs ...string) (*Component, error) {
	return startClientComponent(ctx, "mco-controller-manager", binDir, kubeconfig, logDir, extraArgs)
}

// startClientComponent starts a component that is a client of mco-apiserver
// and serves /readyz over plain HTTP on --bind-address.
func startClientComponent(ctx context.Context, name, binDir, kubeconfig, logDir string, extraArgs []string) (*Component, error) {
	return retryOnPortClash(func() (*Component, error) {
		return startClientComponentOnce(ctx, name, binDir, kubeconfig, logDir, extraArgs)
	})
}

// startClientComponentOnce is one attempt of startClientComponent on a
// fresh port.
func startClientComponentOnce(ctx context.Context, name, binDir, kubeconfig, logDir string, extraArgs []string) (*Component, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	args := append([]string{
		"--kubeconfig=" + kubeconfig,
		"--bind-address=127.0.0.1:" + strconv.Itoa(port),
	}, extraArgs...)
	p, err := startProcess(name, filepath.Join(binDir, name), args, logDir)
	if err != nil {
		return nil, err
	}
	c := &Component{Process: p, Port: port}
	if err := waitHTTP(ctx, http.DefaultClient, HealthURL(port)+"/readyz", readyTimeout, p); err != nil {
		return c, portClash(fmt.Errorf("%s: %w", name, err), p)
	}
	return c, nil
}

// StartStandby starts another replica of the client component p
// (mco-scheduler or mco-controller-manager) with p's arguments on a port of
// its own, logging under logDir, and waits only until it is alive
// (/healthz): a replica waiting for the leader lease is not ready.
func StartStandby(ctx context.Context, p *Process, logDir string) (*Component, error) {
	port, err := freePort()
	if err != nil {
		return nil, err
	}
	var args []string
	for _, a := range p.Args[1:] {
		if !strings.HasPrefix(a, "--bind-address=") {
			args = append(args, a)
		}
	}
	args = append(args, "--bind-address=127.0.0.1:"+strconv.Itoa(port))
	np, err := startProcess(p.Name, p.Args[0], args, logDir)
	if err != nil {
		return nil, err
	}
	c := &Component{Process: np, Port: port}
	if err := waitHTTP(ctx, http.DefaultClient, HealthURL(port)+"/healthz", readyTimeout, np); err != nil {
		return c, fmt.Errorf("standby %s: %w", p.Name, err)
	}
	return c, nil
}
