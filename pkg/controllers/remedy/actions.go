// Package remedy is the remedy controller: it records on each Cluster
// (status.remedyActions) the actions of the Remedies that select it and
// whose decision matches hold for its conditions.
package remedy

import (
	"slices"
	"sort"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
)

// Actions are a cluster's remedy actions: the sorted union of the actions
// of every Remedy that selects it (no clusterAffinity selects every
// cluster) and matches its conditions.
func Actions(remedies []*remedyv1alpha1.Remedy, cluster *clusterv1alpha1.Cluster) []string {
	set := map[string]bool{}
	for _, r := range remedies {
		if !selects(r, cluster.Name) || !matches(r.Spec.DecisionMatches, cluster.Status.Conditions) {
			continue
		}
		for _, a := range r.Spec.Actions {
			set[string(a)] = true
		}
	}
	if len(set) == 0 {
		return nil
	}
	out := make([]string, 0, len(set))
	for a := range set {
		out = append(out, a)
	}
	sort.Strings(out)
	return out
}

func selects(r *remedyv1alpha1.Remedy, cluster string) bool {
	a := r.Spec.ClusterAffinity
	return a == nil || slices.Contains(a.ClusterNames, cluster)
}

// matches tells whether any decision match holds, as Karmada decides: no
// matches hold always; a match on a condition the cluster does not have
// does not hold; Equal holds when the condition's status is the one
// given, NotEqual when it is another.
func matches(decisions []remedyv1alpha1.DecisionMatch, conditions []metav1.Condition) bool {
	if len(decisions) == 0 {
		return true
	}
	for _, d := range decisions {
		req := d.ClusterConditionMatch
		if req == nil {
			continue
		}
		c := meta.FindStatusCondition(conditions, string(req.ConditionType))
		if c == nil {
			continue
		}
		equal := string(c.Status) == req.ConditionStatus
		if (req.Operator == remedyv1alpha1.ClusterConditionEqual && equal) || (req.Operator == remedyv1alpha1.ClusterConditionNotEqual && !equal) {
			return true
		}
	}
	return false
}
