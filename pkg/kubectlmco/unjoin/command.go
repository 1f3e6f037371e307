package unjoin

import (
	"errors"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/rest"

	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// flags are unjoin's command-line flags.
type flags struct {
	kubeconfig, context string
	opts                Options
}

// NewCommand returns `kubectl mco unjoin`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	fl := flags{opts: Options{Wait: time.Minute}}
	cmd := &cobra.Command{
		Use:   "unjoin NAME [--cluster-kubeconfig FILE]",
		Short: "Remove a member cluster from mco",
		Long: `unjoin deletes the Cluster NAME, waits until mco has withdrawn what it propagated to
the member, removes the member's credentials from mco and, with --cluster-kubeconfig,
mco's namespace, service accounts and cluster roles from the member.`,
		Example: `  kubectl mco unjoin member3 --cluster-kubeconfig member3.kubeconfig
  kubectl mco unjoin gone-for-good   # the member is unreachable: clean mco's side only`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return errors.New("unjoin takes exactly one NAME, the Cluster's name on mco")
			}
			fl.opts.Name = args[0]
			mco, err := f.RESTConfig()
			if err != nil {
				return err
			}
			var member *rest.Config
			if fl.kubeconfig != "" {
				if member, err = clients.MemberConfig(fl.kubeconfig, fl.context); err != nil {
					return err
				}
			}
			return Run(cmd.Context(), mco, member, fl.opts, streams.Out)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&fl.kubeconfig, "cluster-kubeconfig", "", "Kubeconfig file of the member; without it only mco's side is cleaned.")
	fs.StringVar(&fl.context, "cluster-context", "", "Context of the member in --cluster-kubeconfig (default: its current context).")
	fs.DurationVar(&fl.opts.Wait, "wait", fl.opts.Wait, "How long to wait for mco to withdraw its objects from the member and delete the Cluster.")
	return cmd
}
