package rollout

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericiooptions"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/rolloutops"
)

func newUndoCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var to int64
	cmd := &cobra.Command{
		Use:   "undo KIND/NAME [--to-revision N]",
		Short: "Return a template to an earlier revision, at once on every cluster that left it",
		Long: `undo writes an earlier revision's content back into the template on mco, as
kubectl rollout undo does for a Deployment (you need the right to update the template).
Unlike a forward rollout, the return goes at once to every cluster that runs another
revision. Without --to-revision it returns to the stable revision, or, when the current
one is complete, to the one before it.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, f, args[0], func(t *target) error { return undo(cmd.Context(), t, to, streams.Out) })
		},
	}
	cmd.Flags().Int64Var(&to, "to-revision", 0, "The revision to return to (0: the previous one).")
	return cmd
}

func undo(ctx context.Context, t *target, to int64, out io.Writer) error {
	ro, err := t.rollout(ctx)
	if err != nil {
		return err
	}
	if to == 0 {
		if to = previous(&ro.Status); to == 0 {
			return fmt.Errorf("%s has no earlier revision to return to", t)
		}
	}
	list, err := t.kube.AppsV1().ControllerRevisions(ro.Namespace).List(ctx, listOf(ro.Name))
	if err != nil {
		return fmt.Errorf("list the revisions of %s: %w", t, err)
	}
	var content map[string]any
	for i := range list.Items {
		if cr := &list.Items[i]; cr.Revision == to {
			if content, err = rollout.Decode(cr); err != nil {
				return err
			}
		}
	}
	if content == nil {
		return fmt.Errorf("%s has no revision %d kept (see kubectl mco rollout history)", t, to)
	}
	if err := rolloutops.Undo(ctx, t.mco, t.templates(), ro, to, content, "kubectl mco rollout undo"); err != nil {
		return err
	}
	fmt.Fprintf(out, "%s rolled back to revision %d\n", t, to)
	return nil
}

// previous is the revision undo returns to by default: the stable one
// while another is on its way, else the newest earlier one in the history.
func previous(st *rolloutv1alpha1.RolloutStatus) int64 {
	if st.StableRevision != 0 && st.StableRevision != st.CurrentRevision {
		return st.StableRevision
	}
	for _, h := range st.History {
		if h.Revision != st.CurrentRevision {
			return h.Revision
		}
	}
	return 0
}
