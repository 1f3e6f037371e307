// Package rollout is `kubectl mco rollout`: the staged rollout of a
// template, with kubectl's own verbs (status, pause, resume, undo,
// history), read from and written to the template's Rollout on mco.
package rollout

import (
	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

// NewCommand returns `kubectl mco rollout`.
func NewCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "rollout SUBCOMMAND KIND/NAME",
		Short: "Follow and steer the staged rollout of a template across waves of clusters",
		Long: `rollout shows and steers how a template's changes travel through the waves of the
RolloutPolicy or ClusterRolloutPolicy that governs it: which revision each cluster runs,
how healthy it is there, and what the rollout waits for.`,
		Example: `  kubectl mco rollout status deploy/web -w
  kubectl mco rollout pause deploy/web
  kubectl mco rollout resume deploy/web --to-wave prod
  kubectl mco rollout undo deploy/web --to-revision 2
  kubectl mco rollout history deploy/web --revision 3`,
	}
	cmd.AddCommand(
		newStatusCommand(f, streams),
		newPauseCommand(f, streams),
		newResumeCommand(f, streams),
		newUndoCommand(f, streams),
		newHistoryCommand(f, streams),
	)
	return cmd
}

// run resolves the target of a subcommand and calls fn with it.
func run(cmd *cobra.Command, f *clients.Factory, arg string, fn func(t *target) error) error {
	cfg, err := f.RESTConfig()
	if err != nil {
		return err
	}
	cfg, watch := clients.Watched(cfg, "mco")
	t, err := resolve(cmd.Context(), f, cfg, arg)
	if err == nil {
		err = fn(t)
	}
	return watch.Explain(cmd.Context(), err, "")
}
