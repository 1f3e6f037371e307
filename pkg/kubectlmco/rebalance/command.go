// Package rebalance is `kubectl mco rebalance`: it creates a
// WorkloadRebalancer for the templates named, waits for its result and
// for the scheduler's fresh placements, and prints them.
package rebalance

import (
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

type flags struct {
	name    string
	ttl     time.Duration
	wait    bool
	timeout time.Duration
}

// NewCommand returns `kubectl mco rebalance`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	fl := &flags{}
	cmd := &cobra.Command{
		Use:   "rebalance KIND/NAME [KIND/NAME...]",
		Short: "Ask the scheduler for a fresh placement of workloads, as if they were new",
		Long: `rebalance spreads workloads again: after a failover their replicas stay where they
moved, and mco leaves them there when the failed cluster returns, as Karmada does.
rebalance creates a WorkloadRebalancer (apps.karmada.io/v1alpha1) listing the
templates, waits until the scheduler has placed each one afresh, and prints the new
placements. A template that is not propagated is reported as failed.`,
		Example: `  # spread a Deployment again after member2 came back
  kubectl mco rebalance deployment/web -n prod

  # several at once; keep the WorkloadRebalancer an hour
  kubectl mco rebalance deploy/web statefulset/db --ttl 1h`,
		Args: cobra.MinimumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			cfg, err := f.RESTConfig()
			if err != nil {
				return err
			}
			cfg, watch := clients.Watched(cfg, "mco")
			_, mco, err := clients.MCO(cfg)
			if err == nil {
				err = run(cmd.Context(), f, mco, fl, args, streams.Out)
			}
			return watch.Explain(cmd.Context(), err, "")
		},
	}
	cmd.Flags().StringVar(&fl.name, "name", "", "Name of the WorkloadRebalancer (default: generated, rebalance-xxxxx).")
	cmd.Flags().DurationVar(&fl.ttl, "ttl", 10*time.Minute, "Delete the WorkloadRebalancer this long after it finished (0: at once, -1s: keep it).")
	cmd.Flags().BoolVar(&fl.wait, "wait", true, "Wait for the results and the new placements.")
	cmd.Flags().DurationVar(&fl.timeout, "timeout", 2*time.Minute, "How long to wait.")
	return cmd
}
