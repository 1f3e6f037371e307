// Package app is the mco-apiserver command line.
package app

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
	utilruntime "k8s.io/apimachinery/pkg/util/runtime"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/component-base/logs"
	logsapi "k8s.io/component-base/logs/api/v1"

	"github.com/mco-org/mco/pkg/apiserver"
	"github.com/mco-org/mco/pkg/apiserver/options"
	"github.com/mco-org/mco/pkg/version"
)

// The logging options consult their feature gates in the server's gate,
// which takes no more gates once --feature-gates is registered.
func init() {
	utilruntime.Must(logsapi.AddFeatureGates(utilfeature.DefaultMutableFeatureGate))
}

// NewCommand returns the mco-apiserver command; it serves until ctx ends.
func NewCommand(ctx context.Context) *cobra.Command {
	o := options.New()
	logging := logsapi.NewLoggingConfiguration()
	var showVersion bool
	cmd := &cobra.Command{
		Use:   "mco-apiserver",
		Short: "The federated Kubernetes API endpoint of mco",
		Long: `mco-apiserver serves the Kubernetes API for resource templates (Deployments,
ConfigMaps, ...) and mco's Karmada-compatible policies, bindings, works and
clusters. It keeps its state in an embedded etcd under --data-dir unless
--etcd-servers names an external etcd cluster.`,
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				fmt.Fprintf(cmd.OutOrStdout(), "mco-apiserver %s (Kubernetes API %s)\n", version.Get(), "v"+apiserver.KubernetesVersion)
				return nil
			}
			if err := logsapi.ValidateAndApply(logging, utilfeature.DefaultFeatureGate); err != nil {
				return err
			}
			if err := o.Complete(); err != nil {
				return err
			}
			if err := o.Validate(); err != nil {
				return err
			}
			return o.Run(ctx)
		},
	}
	fs := cmd.Flags()
	o.AddFlags(fs)
	logsapi.AddFlags(logging, fs)
	logs.AddFlags(fs)
	utilfeature.DefaultMutableFeatureGate.AddFlag(fs)
	fs.BoolVar(&showVersion, "version", false, "Print the version and exit.")
	return cmd
}
