package rollout

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/duration"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// printStatus writes where a rollout stands: the revisions, its state and
// what it waits for, and a row per cluster.
func printStatus(out io.Writer, what string, ro *rolloutv1alpha1.Rollout, now time.Time) {
	st := &ro.Status
	fmt.Fprintf(out, "Rollout of %s", what)
	if p := st.Policy; p.Name != "" {
		fmt.Fprintf(out, " (%s %s)", p.Kind, qualified(p.Namespace, p.Name))
	}
	fmt.Fprintf(out, ": revision %d, stable %d\n", st.CurrentRevision, st.StableRevision)
	fmt.Fprintf(out, "State: %s", orNone(st.State()))
	if msg := st.StateMessage(); msg != "" {
		fmt.Fprintf(out, " - %s", msg)
	}
	fmt.Fprintln(out)
	tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "WAVE\tCLUSTER\tREVISION\tHEALTH\tSINCE\tMESSAGE")
	for _, c := range st.Clusters {
		fmt.Fprintf(tw, "%s\t%s\t%d\t%s\t%s\t%s\n", c.Wave, c.Name, c.Revision, orNone(string(c.Health)), age(c.LastTransitionTime, now), c.Message)
	}
	_ = tw.Flush()
}

// printHistory writes one row per revision kept, newest first.
func printHistory(out io.Writer, what string, ro *rolloutv1alpha1.Rollout) {
	fmt.Fprintf(out, "Revisions of %s:\n", what)
	tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "REVISION\tCREATED\tCHANGE-CAUSE\tCLUSTERS")
	for _, h := range ro.Status.History {
		var clusters []string
		for _, c := range h.Clusters {
			clusters = append(clusters, fmt.Sprintf("%s:%s", c.Name, c.Result))
		}
		mark := ""
		if h.Revision == ro.Status.CurrentRevision {
			mark = " (current)"
		}
		fmt.Fprintf(tw, "%d%s\t%s\t%s\t%s\n", h.Revision, mark, timestamp(&h.CreationTime), orNone(h.ChangeCause), orNone(strings.Join(clusters, ", ")))
	}
	_ = tw.Flush()
}

// printRevision writes one revision's record per cluster.
func printRevision(out io.Writer, what string, h *rolloutv1alpha1.RevisionHistory) {
	fmt.Fprintf(out, "Revision %d of %s\n", h.Revision, what)
	fmt.Fprintf(out, "Created: %s\n", timestamp(&h.CreationTime))
	fmt.Fprintf(out, "Change cause: %s\n", orNone(h.ChangeCause))
	tw := tabwriter.NewWriter(out, 0, 8, 2, ' ', 0)
	fmt.Fprintln(tw, "CLUSTER\tAPPLIED\tHEALTHY\tFAILED\tRESULT\tMESSAGE")
	for _, c := range h.Clusters {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", c.Name, timestamp(c.AppliedTime), timestamp(c.HealthyTime), timestamp(c.FailedTime), c.Result, c.Message)
	}
	_ = tw.Flush()
}

func qualified(ns, name string) string {
	if ns == "" {
		return name
	}
	return ns + "/" + name
}

func orNone(s string) string {
	if s == "" {
		return "<none>"
	}
	return s
}

func age(t *metav1.Time, now time.Time) string {
	if t == nil {
		return "<none>"
	}
	return duration.HumanDuration(now.Sub(t.Time))
}

func timestamp(t *metav1.Time) string {
	if t == nil || t.IsZero() {
		return "-"
	}
	return t.UTC().Format(time.RFC3339)
}
