package benchkit

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// The client settings of a benchmark's own requests: everything runs on
// one machine, and client-side throttling would only hide what the servers
// can do.
const (
	ClientQPS   = 1000
	ClientBurst = 2000
)

// Main runs a benchmark command: run gets the arguments, stdout for the
// figures and stderr for progress, and a context cancelled on an interrupt
// or SIGTERM (so that it stops what it started). An error ends the process
// with status 1, after the command's name.
func Main(name string, run func(ctx context.Context, args []string, out, progress io.Writer) error) {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintf(os.Stderr, "%s: %v\n", name, err)
		stop()
		os.Exit(1)
	}
}

// RESTConfig is a kubeconfig's client configuration at ClientQPS and
// ClientBurst.
func RESTConfig(kubeconfig string) (*rest.Config, error) {
	cfg, err := localcluster.RESTConfig(kubeconfig)
	if err != nil {
		return nil, err
	}
	cfg.QPS, cfg.Burst = ClientQPS, ClientBurst
	return cfg, nil
}
