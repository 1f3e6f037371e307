package taintpolicy

import (
	"slices"
	"sort"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

// decide returns the Cluster's taints once the policies targeting it have
// acted, and whether they differ from the Cluster's own.
//
// A policy whose addOnConditions all hold wants its taints on the Cluster;
// otherwise, if its removeOnConditions all hold, it wants them off. Where
// policies disagree about a taint (same key and effect), the newest policy
// with an opinion wins (creation time, then name), so the outcome depends on
// the conditions only and a second call changes nothing. A wanted taint is
// added (timeAdded now) unless the Cluster already has one of that key and
// effect, whatever its value; an unwanted one is removed only when key,
// effect and value all match. Taints no policy has an opinion about, and
// taints already present, are left as they are, in their order. The
// NoSchedule not-ready and unreachable taints belong to the cluster
// controller, which sets them from Ready; policies never touch them.
//
// The Cluster and the policies are not modified.
func decide(cluster *clusterv1alpha1.Cluster, policies []*policyv1alpha1.ClusterTaintPolicy, now time.Time) ([]corev1.Taint, bool) {
	wants, order := verdicts(cluster, policies)
	if len(order) == 0 {
		return cluster.Spec.Taints, false
	}
	changed := false
	taints := make([]corev1.Taint, 0, len(cluster.Spec.Taints)+len(order))
	for _, t := range cluster.Spec.Taints {
		w, ok := wants[keyEffect{t.Key, t.Effect}]
		if ok && !w.on && w.value == t.Value {
			changed = true
			continue
		}
		taints = append(taints, t)
	}
	added := metav1.NewTime(now)
	for _, k := range order {
		w := wants[k]
		if !w.on || slices.ContainsFunc(cluster.Spec.Taints, func(t corev1.Taint) bool { return t.Key == k.key && t.Effect == k.effect }) {
			continue
		}
		taints = append(taints, corev1.Taint{Key: k.key, Value: w.value, Effect: k.effect, TimeAdded: added.DeepCopy()})
		changed = true
	}
	if !changed {
		return cluster.Spec.Taints, false
	}
	return taints, true
}

// keyEffect identifies a taint on a Cluster: a Cluster has at most one
// taint of each key and effect.
type keyEffect struct {
	key    string
	effect corev1.TaintEffect
}

// want is a policy's opinion of one taint: on (with this value) or off
// (when it has this value).
type want struct {
	on    bool
	value string
}

// verdicts collects, per key and effect, the opinion of the newest policy
// that has one about the Cluster, and the order in which the keys were
// first named.
func verdicts(cluster *clusterv1alpha1.Cluster, policies []*policyv1alpha1.ClusterTaintPolicy) (map[keyEffect]want, []keyEffect) {
	wants := map[keyEffect]want{}
	var order []keyEffect
	for _, p := range inOrder(policies) {
		if !targets(p, cluster) {
			continue
		}
		var on bool
		switch {
		case conditionsMatch(cluster.Status.Conditions, p.Spec.AddOnConditions):
			on = true
		case conditionsMatch(cluster.Status.Conditions, p.Spec.RemoveOnConditions):
			on = false
		default:
			continue
		}
		for _, t := range p.Spec.Taints {
			if ownedByClusterController(t) {
				continue
			}
			k := keyEffect{t.Key, t.Effect}
			if _, seen := wants[k]; !seen {
				order = append(order, k)
			}
			wants[k] = want{on: on, value: t.Value}
		}
	}
	return wants, order
}

// inOrder sorts a copy of the policies by creation time, then name.
func inOrder(policies []*policyv1alpha1.ClusterTaintPolicy) []*policyv1alpha1.ClusterTaintPolicy {
	out := slices.Clone(policies)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i].CreationTimestamp, out[j].CreationTimestamp
		if !a.Equal(&b) {
			return a.Before(&b)
		}
		return out[i].Name < out[j].Name
	})
	return out
}

// targets tells whether the policy's targetClusters select the Cluster
// (nil selects every Cluster; a malformed one, which validation refuses,
// selects none).
func targets(p *policyv1alpha1.ClusterTaintPolicy, cluster *clusterv1alpha1.Cluster) bool {
	return placement.ClusterMatches(cluster, p.Spec.TargetClusters)
}

// conditionsMatch tells whether every test holds for the conditions. No
// tests never match. As in Karmada, a test of a condition type the Cluster
// does not report fails, whether its operator is In or NotIn: a Cluster
// says nothing about a condition until it reports it.
func conditionsMatch(conditions []metav1.Condition, tests []policyv1alpha1.MatchCondition) bool {
	if len(tests) == 0 {
		return false
	}
	for _, test := range tests {
		i := slices.IndexFunc(conditions, func(c metav1.Condition) bool { return c.Type == test.ConditionType })
		if i < 0 {
			return false
		}
		listed := slices.Contains(test.StatusValues, conditions[i].Status)
		switch test.Operator {
		case policyv1alpha1.MatchConditionOpIn:
			if !listed {
				return false
			}
		case policyv1alpha1.MatchConditionOpNotIn:
			if listed {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// ownedByClusterController tells whether the cluster controller manages
// the taint from Ready.
func ownedByClusterController(t policyv1alpha1.Taint) bool {
	return t.Effect == corev1.TaintEffectNoSchedule &&
		(t.Key == clusterv1alpha1.TaintClusterNotReady || t.Key == clusterv1alpha1.TaintClusterUnreachable)
}
