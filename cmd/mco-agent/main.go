// Command mco-agent serves, from inside it, a member cluster that mco
// cannot reach: it pulls the cluster's Works, applies them and reports
// their status, the cluster's status and its Lease.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/component-base/cli"

	"github.com/mco-org/mco/pkg/agent"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(cli.Run(agent.NewCommand(ctx)))
}
