// Package addon is `kubectl mco addon`: install and uninstall an add-on
// in one step, its status per cluster, and what it gives one cluster (its
// merged values and rendered objects, computed as mco-controller-manager
// computes them, with the user's own credentials).
package addon

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// flags are the subcommands' flags.
type flags struct {
	cluster     string
	showSecrets bool
}

// NewCommand returns `kubectl mco addon`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "addon",
		Short: "Install, inspect and uninstall add-ons: status per cluster, the values and objects a cluster gets",
		Args:  cobra.NoArgs,
		Run:   func(cmd *cobra.Command, _ []string) { _ = cmd.Help() },
	}
	cmd.AddCommand(newValuesCommand(f, streams), newRenderCommand(f, streams), newStatusCommand(f, streams),
		newInstallCommand(f, streams), newUninstallCommand(f, streams))
	return cmd
}

func newValuesCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	fl := &flags{}
	cmd := &cobra.Command{
		Use:   "values NAME --cluster CLUSTER",
		Short: "Print the values an add-on gives a cluster, and which layer set each top-level key",
		Long: `values merges an Addon's values for one cluster as mco-controller-manager does:
spec.values, then each valuesFrom, then every override matching the cluster, in order,
maps merged key by key and lists replaced, ${cluster.*} placeholders expanded. It
prints them as YAML, each top-level key after a comment naming the layer that set it
last. Values a Secret gave are redacted unless --show-secrets.`,
		Example: `  kubectl mco addon values log-collector --cluster member1`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), f, args[0], fl, func(in *inputs) error { return printValues(streams.Out, in, fl.showSecrets) })
		},
	}
	addFlags(cmd, fl)
	return cmd
}

func newRenderCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	fl := &flags{}
	cmd := &cobra.Command{
		Use:   "render NAME --cluster CLUSTER",
		Short: "Print the objects an add-on's chart renders for a cluster",
		Long: `render fetches an Addon's chart and renders it for one cluster as
mco-controller-manager does: that cluster's values, its own Kubernetes version and API
list, the chart's CRDs first and the rest in Helm's install order (test hooks left out,
other hooks as ordinary objects, lookup finding nothing). It prints the objects as YAML,
each after a "# Source:" comment. Secrets' data is redacted unless --show-secrets.`,
		Example: `  kubectl mco addon render log-collector --cluster member1`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd.Context(), f, args[0], fl, func(in *inputs) error { return printRender(cmd.Context(), streams.Out, in, fl.showSecrets) })
		},
	}
	addFlags(cmd, fl)
	return cmd
}

func addFlags(cmd *cobra.Command, fl *flags) {
	cmd.Flags().StringVar(&fl.cluster, "cluster", "", "The member cluster to compute for (required).")
	cmd.Flags().BoolVar(&fl.showSecrets, "show-secrets", false, "Print what Secrets hold instead of <redacted>.")
	_ = cmd.MarkFlagRequired("cluster")
}
