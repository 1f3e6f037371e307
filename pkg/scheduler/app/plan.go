/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package app

import (
	"github.com/spf13/cobra"

	"github.com/mco-org/mco/pkg/scheduler/plan"
)

// planFlags are the flags of the plan command.
type planFlags struct {
	files  []string
	output string
}

// NewPlanCommand returns the plan command: an offline preview of one
// scheduling decision, made by the scheduler's own code.
func NewPlanCommand() *cobra.Command {
	f := planFlags{output: plan.OutputYAML}
	cmd := &cobra.Command{
		Use:   "plan -f FILE [-f FILE ...]",
		Short: "Preview where a binding's replicas would go, without a control plane",
		Long: `plan reads member Clusters (labels, taints, spec.provider/region/zones,
status.apiEnablements and status.resourceSummary) and either a ResourceBinding
or a workload template with its PropagationPolicy, runs the scheduler's
filters, scoring, spread selection and replica division on them, and prints
what would be written to the binding's spec.clusters.

A ResourceBinding's spec.clusters is taken as the previous result. When the
binding cannot be scheduled, the reason the scheduler would record is printed
and the command fails.`,
		Example: `  mco-scheduler plan -f clusters.yaml -f binding.yaml
  mco-scheduler plan -f clusters.yaml -f deployment.yaml -f policy.yaml -o json`,
		Args:         cobra.NoArgs,
		SilenceUsage: true,
		// plan does not log; its own (empty) hook keeps the root command's
		// logging setup from running, so a failure is reported as a plain
		// "Error: <reason>" line rather than a log record.
		PersistentPreRunE: func(*cobra.Command, []string) error { return nil },
		RunE: func(cmd *cobra.Command, _ []string) error {
			return plan.Run(cmd.Context(), f.files, f.output, cmd.OutOrStdout(), cmd.ErrOrStderr())
		},
	}
	cmd.Flags().StringSliceVarP(&f.files, "filename", "f", nil,
		"YAML or JSON file with Clusters and a ResourceBinding, or a workload and a PropagationPolicy (repeatable).")
	cmd.Flags().StringVarP(&f.output, "output", "o", f.output, "Output format: yaml or json.")
	return cmd
}
