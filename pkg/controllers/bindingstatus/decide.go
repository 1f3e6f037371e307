package bindingstatus

import (
	"strings"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/names"
)

// Reasons of the binding's FullyApplied condition (Karmada's).
const (
	ReasonFullyAppliedSuccess = "FullyAppliedSuccess"
	ReasonFullyAppliedFailed  = "FullyAppliedFailed"
)

// aggregate lists, per target cluster, what its Work reports; a cluster
// with several Works (an add-on's) is applied when all are, healthy when
// every object of them is, and reflects no single object's status.
func aggregate(targets []workv1alpha2.TargetCluster, works []*workv1alpha1.Work) []workv1alpha2.AggregatedStatusItem {
	byCluster := map[string][]*workv1alpha1.Work{}
	for _, w := range works {
		if c, ok := names.ClusterOf(w.Namespace); ok {
			byCluster[c] = append(byCluster[c], w)
		}
	}
	items := make([]workv1alpha2.AggregatedStatusItem, 0, len(targets))
	for _, t := range targets {
		items = append(items, aggregateCluster(t.Name, byCluster[t.Name]))
	}
	return items
}

// aggregateCluster is what a cluster's Works report.
func aggregateCluster(cluster string, works []*workv1alpha1.Work) workv1alpha2.AggregatedStatusItem {
	item := workv1alpha2.AggregatedStatusItem{ClusterName: cluster, Health: workv1alpha2.ResourceUnknown}
	if len(works) == 0 {
		item.AppliedMessage = "No work for this cluster yet."
		return item
	}
	item.Applied = true
	healthy, unhealthy, manifests := 0, false, 0
	var degraded []string
	for _, w := range works {
		switch c := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied); {
		case c == nil:
			item.Applied, item.AppliedMessage = false, "Not applied yet."
		case c.Status != metav1.ConditionTrue:
			item.Applied, item.AppliedMessage = false, c.Message
		}
		if c := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkDegraded); c != nil && c.Status == metav1.ConditionTrue {
			degraded = append(degraded, c.Message)
		}
		manifests += len(w.Spec.Workload.Manifests)
		for _, ms := range w.Status.ManifestStatuses {
			switch ms.Health {
			case workv1alpha1.ResourceHealthy:
				healthy++
			case workv1alpha1.ResourceUnhealthy:
				unhealthy = true
			}
		}
	}
	if item.Applied {
		// Applied, but not all of it: what the member left out stays in
		// sight on the binding.
		item.AppliedMessage = strings.Join(degraded, " ")
	}
	if len(works) == 1 {
		if st := works[0].Status.ManifestStatuses; len(st) > 0 {
			item.Status = st[0].Status.DeepCopy()
			if st[0].Health != "" {
				item.Health = workv1alpha2.ResourceHealth(st[0].Health)
			}
		}
		return item
	}
	switch {
	case unhealthy:
		item.Health = workv1alpha2.ResourceUnhealthy
	case healthy == manifests:
		item.Health = workv1alpha2.ResourceHealthy
	}
	return item
}

// urgent tells whether new aggregated items are news to write at once
// rather than a step on the way to coalesce: every cluster applied and
// healthy, some cluster's apply failed, or a cluster that was healthy is no
// longer.
func urgent(old, items []workv1alpha2.AggregatedStatusItem) bool {
	healthy := map[string]bool{}
	for _, it := range old {
		healthy[it.ClusterName] = it.Health == workv1alpha2.ResourceHealthy
	}
	for _, it := range items {
		if healthy[it.ClusterName] && it.Health != workv1alpha2.ResourceHealthy {
			return true
		}
	}
	for _, it := range items {
		if !it.Applied {
			return true
		}
		if it.Health != workv1alpha2.ResourceHealthy {
			return false
		}
	}
	return true
}

// fullyApplied is True when there are targets and every one has applied.
func fullyApplied(items []workv1alpha2.AggregatedStatusItem, generation int64) metav1.Condition {
	ok := len(items) > 0
	for _, it := range items {
		ok = ok && it.Applied
	}
	c := metav1.Condition{Type: workv1alpha2.FullyApplied, Status: metav1.ConditionTrue, Reason: ReasonFullyAppliedSuccess,
		Message: "All works have been successfully applied", ObservedGeneration: generation}
	if !ok {
		c.Status, c.Reason = metav1.ConditionFalse, ReasonFullyAppliedFailed
		c.Message = "Failed to apply all works, see status.aggregatedStatus for details"
		if len(items) == 0 {
			c.Message = "The binding has no target cluster."
		}
	}
	return c
}

// How long after a placement the binding's status waits before it is
// written anyway: for a Work that does not exist yet (the binding
// controller may have written nothing for a cluster), and for a Work the
// execution controller has not tried yet (it always records a try, so this
// is only a fallback when it does not run).
const (
	settleFor   = 30 * time.Second
	untriedWait = 5 * time.Minute
)

// settling returns how much longer to wait before writing a binding's
// status: while some target's Work is missing or not yet tried by the
// execution controller, a write would only be overwritten a moment later.
func settling(targets []workv1alpha2.TargetCluster, works []*workv1alpha1.Work, placedAt, now time.Time) time.Duration {
	age := now.Sub(placedAt)
	byCluster := map[string]*workv1alpha1.Work{}
	for _, w := range works {
		if c, ok := names.ClusterOf(w.Namespace); ok {
			byCluster[c] = w
		}
	}
	var wait time.Duration
	for _, t := range targets {
		w := byCluster[t.Name]
		switch {
		case w == nil && age < settleFor:
			wait = max(wait, settleFor-age)
		case w != nil && meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied) == nil && age < untriedWait:
			wait = max(wait, untriedWait-age)
		}
	}
	return wait
}

// decided tells whether a binding's placement is settled for its
// generation: the scheduler has answered it (a binding without placement
// goes where the bindings requiring it go and has nothing to wait for).
func decided(v *binding.View) bool {
	if v.Spec.Placement == nil {
		return len(v.Spec.RequiredBy) > 0
	}
	c := meta.FindStatusCondition(v.Status.Conditions, workv1alpha2.Scheduled)
	return c != nil && c.ObservedGeneration >= v.Meta.Generation
}

// templateAside tells whether a template's new status is an aside to the
// one it shows: the workload is on its way (items not settled, see urgent),
// the two differ in conditions alone (counters and observed generation
// stand still), and no Progressing condition is False (what `kubectl
// rollout status` fails on is never held back). Such a change rides with
// the next write: on members slow to start a burst of workloads, the
// aggregated "not available yet, progressing" is otherwise a write of its
// own between the first apply and the outcome.
func templateAside(items []workv1alpha2.AggregatedStatusItem, old, status any) bool {
	if urgent(nil, items) {
		return false
	}
	o, _ := old.(map[string]any)
	n, ok := status.(map[string]any)
	if !ok {
		return false
	}
	conds, _ := n["conditions"].([]any)
	for _, c := range conds {
		if m, _ := c.(map[string]any); m["type"] == "Progressing" && m["status"] == "False" {
			return false
		}
	}
	return apiequality.Semantic.DeepEqual(withoutConditions(o), withoutConditions(n))
}

// withoutConditions is a status's fields but its conditions (nil for none).
func withoutConditions(st map[string]any) map[string]any {
	out := make(map[string]any, len(st))
	for k, v := range st {
		if k != "conditions" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
