package addon

import (
	"fmt"
	"sort"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// Reasons of an Addon's conditions.
const (
	ReasonAllHealthy   = "AllClustersHealthy"
	ReasonNotPlaced    = "NotPlaced"
	ReasonNotHealthy   = "ClustersNotHealthy"
	ReasonInProgress   = "ClustersProgressing"
	ReasonSettled      = "NothingInProgress"
	ReasonClusterFails = "ClustersFailed"
	ReasonNoFailure    = "NoFailure"
	ReasonNotRenewed   = "RevisionNotMade"
)

// Conditions sums up an add-on's clusters: Ready when it is placed and
// Healthy everywhere with what it should run; Progressing while a cluster
// is installing, waiting for a dependency or removing; Failed while a
// cluster is Failed. Each message names the clusters, by phase. notRenewed
// are the clusters that keep running an earlier revision because the
// current one could not be made for them (its chart could not be fetched
// or rendered), with why: Ready says so.
func Conditions(clusters []addonsv1alpha1.AddonClusterStatus, notRenewed map[string]string, generation int64) []metav1.Condition {
	by := map[addonsv1alpha1.AddonPhase][]string{}
	for _, c := range clusters {
		by[c.Phase] = append(by[c.Phase], c.Name)
	}
	cond := func(t string, ok bool, reason, msg string) metav1.Condition {
		s := metav1.ConditionFalse
		if ok {
			s = metav1.ConditionTrue
		}
		return metav1.Condition{Type: t, Status: s, Reason: reason, Message: msg, ObservedGeneration: generation}
	}
	var ready metav1.Condition
	switch healthy := len(by[addonsv1alpha1.PhaseHealthy]); {
	case len(clusters) == 0:
		ready = cond(addonsv1alpha1.AddonReady, false, ReasonNotPlaced, "no cluster is placed: a ClusterPropagationPolicy selects the Addon")
	case healthy == len(clusters):
		ready = cond(addonsv1alpha1.AddonReady, true, ReasonAllHealthy, fmt.Sprintf("Healthy in %d cluster(s)", healthy))
	default:
		ready = cond(addonsv1alpha1.AddonReady, false, ReasonNotHealthy,
			fmt.Sprintf("Healthy in %d of %d cluster(s); %s", healthy, len(clusters), phases(by, addonsv1alpha1.PhaseHealthy)))
	}
	if len(notRenewed) > 0 {
		names := make([]string, 0, len(notRenewed))
		for c := range notRenewed {
			names = append(names, c)
		}
		sort.Strings(names)
		ready = cond(addonsv1alpha1.AddonReady, false, ReasonNotRenewed,
			fmt.Sprintf("cluster(s) %s keep running an earlier revision: %s", strings.Join(names, ", "), notRenewed[names[0]]))
	}
	moving := []addonsv1alpha1.AddonPhase{addonsv1alpha1.PhaseInstalling, addonsv1alpha1.PhaseWaitingForDependency, addonsv1alpha1.PhaseRemoving}
	progressing := cond(addonsv1alpha1.AddonProgressing, false, ReasonSettled, "")
	if m := phasesOf(by, moving...); m != "" {
		progressing = cond(addonsv1alpha1.AddonProgressing, true, ReasonInProgress, m)
	}
	failed := cond(addonsv1alpha1.AddonFailed, false, ReasonNoFailure, "")
	if f := phasesOf(by, addonsv1alpha1.PhaseFailed); f != "" {
		failed = cond(addonsv1alpha1.AddonFailed, true, ReasonClusterFails, f)
	}
	return []metav1.Condition{ready, progressing, failed}
}

// phases lists the clusters by phase, every phase but skip.
func phases(by map[addonsv1alpha1.AddonPhase][]string, skip addonsv1alpha1.AddonPhase) string {
	var all []addonsv1alpha1.AddonPhase
	for p := range by {
		if p != skip {
			all = append(all, p)
		}
	}
	return phasesOf(by, all...)
}

// phasesOf lists the clusters of the given phases: "Installing: member1,
// member2; Failed: member3", phases and clusters sorted.
func phasesOf(by map[addonsv1alpha1.AddonPhase][]string, want ...addonsv1alpha1.AddonPhase) string {
	sort.Slice(want, func(i, j int) bool { return want[i] < want[j] })
	var parts []string
	for _, p := range want {
		names := append([]string(nil), by[p]...)
		if len(names) == 0 {
			continue
		}
		sort.Strings(names)
		label := string(p)
		if label == "" {
			label = "not judged yet"
		}
		parts = append(parts, label+": "+strings.Join(names, ", "))
	}
	return strings.Join(parts, "; ")
}
