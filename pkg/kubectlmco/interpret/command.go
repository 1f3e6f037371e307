// Package interpret is `kubectl mco interpret`: it checks
// ResourceInterpreterCustomizations and ResourceInterpreterWebhookConfigurations
// and runs their scripts (and calls their webhooks) on objects from files,
// with the interpreter mco's controllers run.
package interpret

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/cli-runtime/pkg/resource"
)

// options are interpret's command-line flags.
type options struct {
	files          resource.FilenameOptions
	operation      string
	check          bool
	desiredFile    string
	observedFile   string
	statusFile     string
	desiredReplica int32
}

// NewCommand returns `kubectl mco interpret`.
func NewCommand(streams genericiooptions.IOStreams) *cobra.Command {
	var o options
	cmd := &cobra.Command{
		Use:   "interpret -f CUSTOMIZATION (--check | --operation OPERATION [--desired-file F] [--observed-file F] [--status-file F] [--desired-replica N])",
		Short: "Check interpreter customizations and webhooks and run them on objects from files",
		Long: `interpret works on ResourceInterpreterCustomizations and
ResourceInterpreterWebhookConfigurations (config.karmada.io/v1alpha1) read from files:
nothing is read from or written to mco. Webhooks are called at their clientConfig.url.

--check loads every script of every customization as mco-apiserver's validation does
(it compiles and must define its function) and prints PASS, UNSET or ERROR per rule,
and PASS or ERROR per webhook as validation judges it (without calling it); it exits 1
when any rule or webhook fails.

--operation runs one rule on objects from files, with the interpreter mco's controllers
run (the same sandbox, time limit and conversions), and prints each answer as YAML under
"# [i/N] name:". Operations, case-insensitive: Retain (--desired-file and --observed-file),
InterpretReplica, InterpretComponent, ReviseReplica (with --desired-replica), InterpretStatus,
AggregateStatus (with --status-file, one AggregatedStatusItem per YAML document),
InterpretHealth and InterpretDependency (each with exactly one of --desired-file or
--observed-file). The customizations' scripts answer first, then the webhooks (the first
by configuration and webhook name whose rules match): mco's built-in rules for
Kubernetes' kinds do not, and an operation neither gives is an error. A failing
rule prints "Execute <operation> error: ..." and exits 1.

karmadactl interpret's --edit and --show-doc are not offered: edit the file, and see the
README for each rule's function.`,
		Example: `  # Check the customizations in a file
  kubectl mco interpret -f customization.yaml --check

  # Run the retention rule
  kubectl mco interpret -f customization.yaml --operation retain --desired-file desired.yaml --observed-file observed.yaml

  # Ask a webhook for a custom kind's replicas
  kubectl mco interpret -f webhook-configuration.yaml --operation interpretReplica --desired-file widget.yaml

  # Run the replicaRevision rule
  kubectl mco interpret -f customization.yaml --operation reviseReplica --observed-file observed.yaml --desired-replica 2

  # Run the statusAggregation rule on status items from stdin
  kubectl mco interpret -f customization.yaml --operation aggregateStatus --desired-file desired.yaml --status-file -`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return run(cmd.Context(), o, streams)
		},
	}
	fl := cmd.Flags()
	fl.StringSliceVarP(&o.files.Filenames, "filename", "f", nil, "Filename, directory, or URL to files containing the customizations.")
	fl.BoolVarP(&o.files.Recursive, "recursive", "R", false, "Process the directory used in -f, --filename recursively.")
	fl.StringVar(&o.operation, "operation", "", "The interpret operation to use. One of: ("+operationNames()+")")
	fl.BoolVar(&o.check, "check", false, "Validates the given ResourceInterpreterCustomization configuration(s)")
	fl.StringVar(&o.desiredFile, "desired-file", "", "Filename or URL of the resource to use as desiredObj argument in rule script.")
	fl.StringVar(&o.observedFile, "observed-file", "", "Filename or URL of the resource to use as observedObj argument in rule script.")
	fl.StringVar(&o.statusFile, "status-file", "", "Filename or URL of the status items (one per YAML document) to use as statusItems argument in rule script; - for stdin.")
	fl.Int32Var(&o.desiredReplica, "desired-replica", 0, "The desiredReplica argument in rule script.")
	return cmd
}
