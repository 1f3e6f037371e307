package addon

import (
	"errors"
	"fmt"
	"sort"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/addon"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// StatusInput is what an Addon's status is made of.
type StatusInput struct {
	Addon *addonsv1alpha1.Addon
	// Placed are the clusters the add-on is placed on now.
	Placed []string
	// Outcomes are the binding controller's, by cluster (missing: not
	// rendered yet).
	Outcomes map[string]addon.Outcome
	// Works are the add-on's Works by cluster, those being deleted too.
	Works map[string][]*workv1alpha1.Work
}

// Status is an Addon's status from what the binding controller made of
// each placed cluster and what its Works say there: one entry per placed
// cluster, and one Removing per cluster left that still has Works.
func Status(in StatusInput) addonsv1alpha1.AddonStatus {
	prev := map[string]addonsv1alpha1.AddonClusterStatus{}
	for _, c := range in.Addon.Status.Clusters {
		prev[c.Name] = c
	}
	placed := map[string]bool{}
	notRenewed := map[string]string{}
	var clusters []addonsv1alpha1.AddonClusterStatus
	for _, name := range in.Placed {
		placed[name] = true
		o, ok := in.Outcomes[name]
		if !ok {
			e := addonsv1alpha1.AddonClusterStatus{Name: name, Message: "not rendered for this cluster yet"}
			if p, had := prev[name]; had {
				e = p
			}
			clusters = append(clusters, e)
			continue
		}
		live := alive(in.Works[name])
		e := entry(name, prev[name], o, live)
		if o.Err != "" && len(live) > 0 {
			notRenewed[name] = o.Err
		}
		clusters = append(clusters, e)
	}
	for name, works := range in.Works {
		if placed[name] || len(works) == 0 {
			continue
		}
		phase, msg := addon.Judge(addon.Observed{Removing: true})
		e := prev[name]
		e.Name, e.Phase, e.Message = name, phase, msg
		clusters = append(clusters, e)
	}
	sort.Slice(clusters, func(i, j int) bool { return clusters[i].Name < clusters[j].Name })
	return addonsv1alpha1.AddonStatus{
		ObservedGeneration: in.Addon.Generation,
		Conditions:         conditions(in.Addon.Status.Conditions, addon.Conditions(clusters, notRenewed, in.Addon.Generation)),
		Clusters:           clusters,
	}
}

// entry is one placed cluster's record. A cluster whose new revision
// could not be made but that runs an earlier one is judged by what runs
// there, the error added to its message; one where nothing runs yet is
// Failed with the error.
func entry(name string, prev addonsv1alpha1.AddonClusterStatus, o addon.Outcome, works []*workv1alpha1.Work) addonsv1alpha1.AddonClusterStatus {
	obs := addon.Observed{Previous: prev.Phase, Verdict: o.Verdict, Works: works, Want: o.Want}
	e := addonsv1alpha1.AddonClusterStatus{Name: name, ChartVersion: o.ChartVersion, Revision: o.Revision, ValuesHash: o.ValuesHash, LastSyncTime: lastApplied(works)}
	switch {
	case o.Err != "" && len(works) > 0:
		obs.Want = len(works)
		e.ChartVersion, e.Revision, e.ValuesHash = prev.ChartVersion, prev.Revision, prev.ValuesHash
	case o.Err != "":
		obs.Err = errors.New(o.Err)
	case !o.Verdict.Proceed() && len(works) > 0:
		// Stopped where something of it runs: that stays as it was.
		e.ChartVersion, e.Revision, e.ValuesHash = prev.ChartVersion, prev.Revision, prev.ValuesHash
	case !o.Verdict.Proceed():
		e.ChartVersion, e.Revision, e.ValuesHash = "", 0, ""
	}
	e.Phase, e.Message = addon.Judge(obs)
	if o.Err == "" && o.Verdict.Proceed() && !current(works, o.Rendered) {
		e.Phase, e.Message = addonsv1alpha1.PhaseInstalling, fmt.Sprintf("writing revision %d (chart %s)", o.Revision, o.ChartVersion)
	}
	if o.Err != "" && len(works) > 0 {
		e.Message = join(e.Message, "keeps running what it had; the current revision could not be made: "+o.Err)
	}
	return e
}

func join(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// current tells whether every Work carries what the cluster is given.
func current(works []*workv1alpha1.Work, rendered string) bool {
	for _, w := range works {
		if w.Annotations[addon.RenderedAnnotation] != rendered {
			return false
		}
	}
	return true
}

// alive leaves out the Works being deleted.
func alive(works []*workv1alpha1.Work) []*workv1alpha1.Work {
	var out []*workv1alpha1.Work
	for _, w := range works {
		if w.DeletionTimestamp == nil {
			out = append(out, w)
		}
	}
	return out
}

// lastApplied is when the latest of the Works was last applied, nil when
// none is applied.
func lastApplied(works []*workv1alpha1.Work) *metav1.Time {
	var last *metav1.Time
	for _, w := range works {
		c := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied)
		if c != nil && c.Status == metav1.ConditionTrue && (last == nil || last.Before(&c.LastTransitionTime)) {
			t := c.LastTransitionTime
			last = &t
		}
	}
	return last
}

// conditions sets want on the conditions there were, keeping the
// transition times of those whose status did not change.
func conditions(had, want []metav1.Condition) []metav1.Condition {
	out := append([]metav1.Condition(nil), had...)
	for _, c := range want {
		meta.SetStatusCondition(&out, c)
	}
	return out
}

// News tells whether a new status is news to write at once rather than a
// step on the way to gather with the next ones: another generation, a
// cluster added or gone, or a cluster reaching a phase others act on
// (Healthy, which dependents and waves wait for; Failed, Degraded,
// Blocked, WaitingForDependency). Progress within Installing or Removing
// is not.
func News(old, st *addonsv1alpha1.AddonStatus) bool {
	if old.ObservedGeneration != st.ObservedGeneration || len(old.Clusters) != len(st.Clusters) {
		return true
	}
	phases := make(map[string]addonsv1alpha1.AddonPhase, len(old.Clusters))
	for _, c := range old.Clusters {
		phases[c.Name] = c.Phase
	}
	for _, c := range st.Clusters {
		p, ok := phases[c.Name]
		switch {
		case !ok:
			return true
		case p == c.Phase:
		case c.Phase != addonsv1alpha1.PhaseInstalling && c.Phase != addonsv1alpha1.PhaseRemoving:
			return true
		}
	}
	return false
}
