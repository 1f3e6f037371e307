package rollout

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/kubectlmco/cmderr"
)

func newStatusCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var follow bool
	var timeout time.Duration
	cmd := &cobra.Command{
		Use:   "status KIND/NAME [-w]",
		Short: "Show the waves, clusters and revisions of a staged rollout, and what it waits for",
		Long: `status prints the revision being rolled out, the rollout's state and what it waits
for, and per cluster its wave, revision and health. It exits 1 when the rollout has
failed, so that a pipeline can gate on it; with -w it follows the rollout until it is
complete (exit 0) or failed (exit 1).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, f, args[0], func(t *target) error {
				ctx := cmd.Context()
				if timeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, timeout)
					defer cancel()
				}
				return status(ctx, t, follow, streams.Out)
			})
		},
	}
	cmd.Flags().BoolVarP(&follow, "watch", "w", false, "Follow the rollout until it is complete or failed.")
	cmd.Flags().DurationVar(&timeout, "timeout", 0, "With -w, how long to wait before giving up (0: no limit).")
	return cmd
}

// status prints a rollout once, or follows it.
func status(ctx context.Context, t *target, follow bool, out io.Writer) error {
	ro, err := t.rollout(ctx)
	if err != nil {
		return err
	}
	printStatus(out, t.String(), ro, time.Now())
	if done, err := verdict(ro); done || !follow {
		return err
	}
	w, err := t.mco.RolloutV1alpha1().Rollouts(ro.Namespace).Watch(ctx, metav1.ListOptions{
		FieldSelector: fields.OneTermEqualSelector("metadata.name", ro.Name).String(), ResourceVersion: ro.ResourceVersion})
	if err != nil {
		return fmt.Errorf("watch the rollout of %s: %w", t, err)
	}
	defer w.Stop()
	last := ro.Status.DeepCopy()
	for {
		select {
		case <-ctx.Done():
			return fmt.Errorf("the rollout of %s is not complete: %w", t, ctx.Err())
		case ev, ok := <-w.ResultChan():
			if !ok {
				return status(ctx, t, true, out) // the watch ended: read again and go on
			}
			if ev.Type == watch.Deleted {
				return fmt.Errorf("the rollout of %s was deleted: its template is gone or no policy governs it any more", t)
			}
			ro, ok := ev.Object.(*rolloutv1alpha1.Rollout)
			if !ok || changedOnlyInTime(last, &ro.Status) {
				continue
			}
			fmt.Fprintln(out)
			printStatus(out, t.String(), ro, time.Now())
			last = ro.Status.DeepCopy()
			if done, err := verdict(ro); done {
				return err
			}
		}
	}
}

// verdict tells whether a rollout is over, and failed.
func verdict(ro *rolloutv1alpha1.Rollout) (bool, error) {
	st := &ro.Status
	switch {
	case meta.IsStatusConditionTrue(st.Conditions, rolloutv1alpha1.ConditionFailed):
		return true, cmderr.Reported
	case meta.IsStatusConditionTrue(st.Conditions, rolloutv1alpha1.ConditionComplete):
		return true, nil
	}
	return false, nil
}

// changedOnlyInTime tells whether nothing a reader sees changed.
func changedOnlyInTime(a, b *rolloutv1alpha1.RolloutStatus) bool {
	if a.CurrentRevision != b.CurrentRevision || a.Wave != b.Wave || a.State() != b.State() ||
		a.StateMessage() != b.StateMessage() || len(a.Clusters) != len(b.Clusters) {
		return false
	}
	for i := range a.Clusters {
		x, y := a.Clusters[i], b.Clusters[i]
		if x.Name != y.Name || x.Revision != y.Revision || x.Health != y.Health || x.Message != y.Message {
			return false
		}
	}
	return true
}
