// Package token is `kubectl mco token create`: an admin's short-lived
// bootstrap credential for registering one member cluster in Pull mode.
package token

import (
	"errors"
	"fmt"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	clustervalidation "github.com/mco-org/mco/pkg/apis/cluster/validation"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/register"
)

// NewCommand returns `kubectl mco token`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "token",
		Short: "Manage bootstrap credentials for registering member clusters in Pull mode",
	}
	cmd.AddCommand(newCreate(f, streams))
	return cmd
}

func newCreate(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var (
		ttl  = register.DefaultBootstrapTTL
		file string
	)
	cmd := &cobra.Command{
		Use:   "create NAME [--ttl DURATION] [--bootstrap-kubeconfig FILE]",
		Short: "Make a short-lived bootstrap credential for registering cluster NAME in Pull mode",
		Long: `token create prepares the identity on mco of cluster NAME's agent (ServiceAccount
karmada-cluster/mco-agent-NAME with the rights of that cluster's agent only) and issues a
token of it that lasts --ttl. kubectl mco register, on the member's side, exchanges it for the
agent's own longer-lived credential. Unlike Karmada's token, it registers that cluster only.`,
		Example: `  kubectl mco token create edge-1 --bootstrap-kubeconfig edge-1-bootstrap.kubeconfig
  kubectl mco register edge-1 --bootstrap-kubeconfig edge-1-bootstrap.kubeconfig --cluster-kubeconfig edge-1.kubeconfig`,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) != 1 {
				return errors.New("token create takes exactly one NAME, the cluster's name on mco")
			}
			name := args[0]
			if msgs := clustervalidation.ValidateClusterName(name, false); len(msgs) > 0 {
				return fmt.Errorf("invalid cluster name %q: %s", name, msgs[0])
			}
			if ttl < 10*time.Minute || ttl > 24*time.Hour {
				return fmt.Errorf("--ttl must be between 10m and 24h, got %s", ttl)
			}
			mco, err := f.RESTConfig()
			if err != nil {
				return err
			}
			b, err := register.CreateToken(cmd.Context(), mco, name, ttl)
			if err != nil {
				return err
			}
			out := streams.Out
			if file != "" {
				if err := b.WriteKubeconfig(file); err != nil {
					return err
				}
				fmt.Fprintf(out, "Bootstrap credential for cluster %s written to %s (expires %s).\n", name, file, b.Expires.UTC().Format(time.RFC3339))
				fmt.Fprintf(out, "On the member's side:\n  kubectl mco register %s --bootstrap-kubeconfig %s --cluster-kubeconfig MEMBER-KUBECONFIG\n", name, file)
				return nil
			}
			fmt.Fprintf(out, "%s\n", b.Token)
			fmt.Fprintf(streams.ErrOut, "Bootstrap token for cluster %s (expires %s). On the member's side:\n  kubectl mco register %s --mco-server %s --token TOKEN --mco-ca-file MCO-CA.pem --cluster-kubeconfig MEMBER-KUBECONFIG\n",
				name, b.Expires.UTC().Format(time.RFC3339), name, b.Server)
			return nil
		},
	}
	cmd.Flags().DurationVar(&ttl, "ttl", ttl, "Lifetime of the bootstrap credential (10m to 24h).")
	cmd.Flags().StringVar(&file, "bootstrap-kubeconfig", "", "Write the credential as a kubeconfig (mco's address, CA and the token) to this file instead of printing the token.")
	return cmd
}
