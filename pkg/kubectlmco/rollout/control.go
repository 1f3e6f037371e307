package rollout

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/util/retry"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

func newPauseCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "pause KIND/NAME",
		Short: "Hold a staged rollout: no cluster gets a new revision until it is resumed",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, f, args[0], func(t *target) error {
				return change(cmd.Context(), t, streams.Out, func(ro *rolloutv1alpha1.Rollout, _ []string) (string, error) {
					if ro.Spec.Paused {
						return "already paused", nil
					}
					ro.Spec.Paused = true
					return "paused", nil
				})
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
pause, or the failed wave, which is tried again. With --to-wave it releases every wave
up to and including the one named, so their pauses do not stop the rollout.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, f, args[0], func(t *target) error {
				return change(cmd.Context(), t, streams.Out, func(ro *rolloutv1alpha1.Rollout, waves []string) (string, error) {
					return resume(ro, waves, toWave)
				})
			})
		},
	}
	cmd.Flags().StringVar(&toWave, "to-wave", "", "Release every wave up to and including this one.")
	return cmd
}

// resume changes a Rollout's spec to go on: unpaused, with a release
// through the next wave (or toWave) of its current revision.
func resume(ro *rolloutv1alpha1.Rollout, waves []string, toWave string) (string, error) {
	st := &ro.Status
	through := toWave
	switch {
	case toWave != "" && !slices.Contains(waves, toWave):
		return "", fmt.Errorf("the policy has no wave %q (waves: %s)", toWave, strings.Join(waves, ", "))
	case toWave != "" && slices.Index(waves, toWave) < int(st.WaveIndex):
		return "", fmt.Errorf("wave %s has started already", toWave)
	case toWave == "" && int(st.WaveIndex) < len(waves):
		through = waves[st.WaveIndex]
	case toWave == "":
		through = waves[len(waves)-1]
	}
	ro.Spec.Paused = false
	ro.Spec.Release = &rolloutv1alpha1.WaveRelease{Revision: st.CurrentRevision, ThroughWave: through, Time: metav1.Now()}
	return fmt.Sprintf("resumed through wave %s", through), nil
}

// change applies edit to the template's Rollout and writes it, retrying
// on conflicts; it prints what edit says it did.
func change(ctx context.Context, t *target, out io.Writer, edit func(*rolloutv1alpha1.Rollout, []string) (string, error)) error {
	var did string
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		ro, err := t.rollout(ctx)
		if err != nil {
			return err
		}
		waves, err := t.waves(ctx, ro)
		if err != nil {
			return err
		}
		before := ro.Spec.DeepCopy()
		if did, err = edit(ro, waves); err != nil {
			return err
		}
		if before.Paused == ro.Spec.Paused && before.Release == nil && ro.Spec.Release == nil {
			return nil
		}
		_, err = t.mco.RolloutV1alpha1().Rollouts(ro.Namespace).Update(ctx, ro, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("%s: %w", t, err)
	}
	fmt.Fprintf(out, "%s %s\n", t, did)
	return nil
}
