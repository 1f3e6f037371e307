package rollout

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/rolloutops"
)

func newPauseCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "pause KIND/NAME",
		Short: "Hold a staged rollout: no cluster gets a new revision until it is resumed",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, f, args[0], func(t *target) error {
				return change(cmd.Context(), t, streams.Out, rollout.Pause)
			})
		},
	}
}

func newResumeCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var toWave string
	cmd := &cobra.Command{
		Use:   "resume KIND/NAME [--to-wave NAME]",
		Short: "Go on with a paused or failed staged rollout: release the next wave, or every wave up to one",
		Long: `resume clears a pause and releases the next wave: the one after a wave marked
pause, or the failed wave, which is tried again. Given while a wave marked pause is
still under way, it is kept: the rollout goes on past that wave without pausing once it
passes (for the current revision only). With --to-wave it releases every wave up to and
including the one named, so their pauses do not stop the rollout.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, f, args[0], func(t *target) error {
				return change(cmd.Context(), t, streams.Out, func(ro *rolloutv1alpha1.Rollout, waves []rollout.PolicyWave) (string, error) {
					return rollout.Resume(ro, waves, toWave, time.Now())
				})
			})
		},
	}
	cmd.Flags().StringVar(&toWave, "to-wave", "", "Release every wave up to and including this one.")
	return cmd
}

// change applies edit to the template's Rollout and writes it, retrying
// on conflicts (rolloutops.Change, as the dashboard does); it prints what
// edit says it did.
func change(ctx context.Context, t *target, out io.Writer, edit func(*rolloutv1alpha1.Rollout, []rollout.PolicyWave) (string, error)) error {
	if _, err := t.rollout(ctx); err != nil {
		return err
	}
	did, err := rolloutops.Change(ctx, t.mco, t.recordNamespace(), t.recordName(), edit)
	if err != nil {
		return fmt.Errorf("%s: %w", t, err)
	}
	fmt.Fprintf(out, "%s %s\n", t, did)
	return nil
}
