// Command mco-controller-manager runs mco's controllers: it binds
// templates to policies, writes Works, pushes them to member clusters and
// brings their status back.
package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"k8s.io/component-base/cli"

	"github.com/mco-org/mco/pkg/controllermanager"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(cli.Run(controllermanager.NewCommand(ctx)))
}
