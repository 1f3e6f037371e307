// Package unregister is `kubectl mco unregister`: it removes a Pull member
// cluster from mco, revokes its agent's credential and, given the member's
// kubeconfig, removes the agent from the member.
package unregister

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/register"
)

// NewCommand returns `kubectl mco unregister`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var (
		kubeconfig, context string
		opts                = register.UnregisterOptions{Timeout: time.Minute, Namespace: register.DefaultNamespace}
	)
	cmd := &cobra.Command{
		Use:   "unregister NAME [--cluster-kubeconfig FILE]",
		Short: "Remove a Pull member cluster from mco",
		Long: `unregister deletes the Pull Cluster NAME and waits until its agent has withdrawn from the
member what mco propagated there (with the agent gone, mco lets the Works go once the Cluster is
no longer Ready), revokes the agent's credential on mco (every token of it stops working) and,
with --cluster-kubeconfig, removes the agent from the member. A Push cluster is refused: kubectl
mco unjoin removes it.`,
		Example: `  kubectl mco unregister edge-1 --cluster-kubeconfig edge-1.kubeconfig`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return errors.New("unregister takes exactly one NAME, the Cluster's name on mco")
			}
			opts.Name = args[0]
			mcoCfg, err := f.RESTConfig()
			if err != nil {
				return err
			}
			mcoKube, mco, err := clients.MCO(mcoCfg)
			if err != nil {
				return err
			}
			var member kubernetes.Interface
			if kubeconfig != "" {
				cfg, err := clients.MemberConfig(kubeconfig, context)
				if err != nil {
					return err
				}
				if member, err = kubernetes.NewForConfig(clients.WithMemberTimeout(cfg)); err != nil {
					return fmt.Errorf("client of the member: %w", err)
				}
			} else {
				fmt.Fprintf(streams.Out, "No --cluster-kubeconfig given: the agent's namespace %s stays in the member (its credential is revoked)\n", opts.Namespace)
			}
			opts.Progress = func(step string) { fmt.Fprintf(streams.Out, "- %s\n", step) }
			if err := register.Unregister(cmd.Context(), mcoKube, mco, member, opts); err != nil {
				return err
			}
			fmt.Fprintf(streams.Out, "Cluster %s unregistered\n", opts.Name)
			return nil
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&kubeconfig, "cluster-kubeconfig", "", "Kubeconfig file of the member; without it only mco's side is cleaned.")
	fs.StringVar(&context, "cluster-context", "", "Context of the member in --cluster-kubeconfig (default: its current context).")
	fs.StringVar(&opts.Namespace, "namespace", opts.Namespace, "Namespace of the agent in the member.")
	fs.DurationVar(&opts.Timeout, "wait", opts.Timeout, "How long to wait for the Works to be withdrawn and the Cluster to go.")
	return cmd
}
