package rollout

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"sigs.k8s.io/yaml"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
	"github.com/mco-org/mco/pkg/rollout"
)

func newHistoryCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	var revision int64
	cmd := &cobra.Command{
		Use:   "history KIND/NAME [--revision N]",
		Short: "List a template's revisions, or show where and when one ran, with what result",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			return run(cmd, f, args[0], func(t *target) error { return history(cmd.Context(), t, revision, streams.Out) })
		},
	}
	cmd.Flags().Int64Var(&revision, "revision", 0, "Show this revision: per cluster when it was applied, became healthy or failed, and its content.")
	return cmd
}

func history(ctx context.Context, t *target, revision int64, out io.Writer) error {
	ro, err := t.rollout(ctx)
	if err != nil {
		return err
	}
	if revision == 0 {
		printHistory(out, t.String(), ro)
		return nil
	}
	var h *rolloutv1alpha1.RevisionHistory
	for i := range ro.Status.History {
		if ro.Status.History[i].Revision == revision {
			h = &ro.Status.History[i]
		}
	}
	if h == nil {
		return fmt.Errorf("%s has no revision %d in its history", t, revision)
	}
	printRevision(out, t.String(), h)
	list, err := t.kube.AppsV1().ControllerRevisions(ro.Namespace).List(ctx, listOf(ro.Name))
	if err != nil {
		return fmt.Errorf("list the revisions of %s: %w", t, err)
	}
	for i := range list.Items {
		if cr := &list.Items[i]; cr.Revision == revision {
			content, err := rollout.Decode(cr)
			if err != nil {
				return err
			}
			raw, err := yaml.Marshal(content)
			if err != nil {
				return fmt.Errorf("print revision %d: %w", revision, err)
			}
			fmt.Fprintf(out, "Content:\n%s", indent(string(raw)))
		}
	}
	return nil
}

// listOf selects a Rollout's ControllerRevisions.
func listOf(rollout string) metav1.ListOptions {
	return metav1.ListOptions{LabelSelector: rolloutv1alpha1.RolloutLabel + "=" + rollout}
}

func indent(s string) string {
	lines := strings.Split(strings.TrimSuffix(s, "\n"), "\n")
	return "  " + strings.Join(lines, "\n  ") + "\n"
}
