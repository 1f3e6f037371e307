package addon

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/duration"
	"k8s.io/cli-runtime/pkg/genericiooptions"
	"k8s.io/client-go/kubernetes"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubectlmco/clients"
)

func newStatusCommand(f *clients.Factory, streams genericiooptions.IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:   "status NAME",
		Short: "Show an add-on in each of its clusters: phase, chart version, revision, last sync, what it waits for",
		Long: `status prints an Addon's conditions, then one line per cluster it is placed on (or
being removed from): its phase (WaitingForDependency, Blocked, Installing, Healthy,
Degraded, Failed, Removing), the chart version and revision it runs or is given, when
its objects were last applied, and the message saying what it waits for or why it
stopped. It exits 1 unless the add-on is Ready.`,
		Example: `  kubectl mco addon status log-collector`,
		Args:    cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			var ready bool
			err := withMCO(cmd.Context(), f, func(_ kubernetes.Interface, mco mcoclient.Interface) error {
				a, err := mco.AddonsV1alpha1().Addons().Get(cmd.Context(), args[0], metav1.GetOptions{})
				if err != nil {
					return fmt.Errorf("addon %s: %w", args[0], err)
				}
				ready, err = printStatus(streams.Out, a, time.Now())
				return err
			})
			if err != nil {
				return err
			}
			if !ready {
				return errNotReady{}
			}
			return nil
		},
	}
}

// errNotReady makes the command exit 1 once the status is printed.
type errNotReady struct{}

func (errNotReady) Error() string { return "the add-on is not Ready" }

// printStatus writes an Addon's status and tells whether it is Ready.
func printStatus(out io.Writer, a *addonsv1alpha1.Addon, now time.Time) (bool, error) {
	fmt.Fprintf(out, "Addon %s: chart %s %s from %s, release %s/%s\n", a.Name, a.Spec.Chart.Name, a.Spec.Chart.Version,
		a.Spec.Chart.Repository, a.Spec.Release.Namespace, a.Spec.Release.Name)
	if a.Status.ObservedGeneration != a.Generation {
		fmt.Fprintf(out, "(status of generation %d; the Addon is at %d)\n", a.Status.ObservedGeneration, a.Generation)
	}
	for _, t := range []string{addonsv1alpha1.AddonReady, addonsv1alpha1.AddonProgressing, addonsv1alpha1.AddonFailed} {
		if c := meta.FindStatusCondition(a.Status.Conditions, t); c != nil {
			fmt.Fprintf(out, "%s: %s (%s) %s\n", c.Type, c.Status, c.Reason, c.Message)
		}
	}
	fmt.Fprintln(out)
	w := tabwriter.NewWriter(out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "CLUSTER\tPHASE\tCHART\tREVISION\tLAST SYNC\tMESSAGE")
	for _, c := range a.Status.Clusters {
		phase, chart, rev, last := string(c.Phase), c.ChartVersion, "-", "-"
		if phase == "" {
			phase = "-"
		}
		if chart == "" {
			chart = "-"
		}
		if c.Revision != 0 {
			rev = fmt.Sprint(c.Revision)
		}
		if c.LastSyncTime != nil {
			last = duration.HumanDuration(now.Sub(c.LastSyncTime.Time)) + " ago"
		}
		fmt.Fprintf(w, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, phase, chart, rev, last, c.Message)
	}
	if err := w.Flush(); err != nil {
		return false, err
	}
	return meta.IsStatusConditionTrue(a.Status.Conditions, addonsv1alpha1.AddonReady), nil
}
