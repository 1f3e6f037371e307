package preview

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// flags are preview's command-line flags.
type flags struct {
	files  []string
	output string
}

// NewCommand returns `kubectl mco preview`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var fl flags
	cmd := &cobra.Command{
		Use:   "preview -f WORKLOAD -f POLICY",
		Short: "Show where a workload would land among mco's clusters now, and why not elsewhere",
		Long: `preview runs mco's scheduler (its filter plugins, spread selection and replica division)
on a workload and its PropagationPolicy or ClusterPropagationPolicy (or a ResourceBinding)
read from files, against the Clusters on mco as they are now. Nothing is written.

Each cluster gets a row: the replicas it would run, or "-" and the reason it is left out,
with the filter plugin that rejected it in parentheses.`,
		Example: `  kubectl mco preview -f deploy.yaml -f policy.yaml
  kubectl mco preview -f app.yaml -o yaml`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			cfg, err := f.RESTConfig()
			if err != nil {
				return err
			}
			cfg, watch := clients.Watched(cfg, "mco")
			_, mco, err := clients.MCO(cfg)
			if err != nil {
				return err
			}
			err = Run(cmd.Context(), mco, fl.files, fl.output, streams.Out, streams.ErrOut)
			return watch.Explain(cmd.Context(), err, "")
		},
	}
	cmd.Flags().StringSliceVarP(&fl.files, "filename", "f", nil, "YAML or JSON file with the workload and its policy, or a ResourceBinding (repeatable).")
	cmd.Flags().StringVarP(&fl.output, "output", "o", "", "Output format: yaml or json (default: a table).")
	return cmd
}
