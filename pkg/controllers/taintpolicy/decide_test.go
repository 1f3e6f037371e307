package taintpolicy

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/builders"
)

var (
	now     = time.Date(2026, 12, 1, 10, 0, 0, 0, time.UTC)
	earlier = metav1.NewTime(now.Add(-time.Hour))
)

const (
	notReady = clusterv1alpha1.TaintClusterNotReady
	noExec   = corev1.TaintEffectNoExecute
	noSched  = corev1.TaintEffectNoSchedule
)

// cond is a MatchCondition.
func cond(conditionType string, op policyv1alpha1.MatchConditionOperator, values ...metav1.ConditionStatus) policyv1alpha1.MatchCondition {
	return policyv1alpha1.MatchCondition{ConditionType: conditionType, Operator: op, StatusValues: values}
}

// policy is a ClusterTaintPolicy created at minute m (later policies are
// newer).
func policy(name string, m int, add, remove []policyv1alpha1.MatchCondition, taints ...policyv1alpha1.Taint) *policyv1alpha1.ClusterTaintPolicy {
	return &policyv1alpha1.ClusterTaintPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: name, CreationTimestamp: metav1.NewTime(now.Add(time.Duration(m-100) * time.Minute))},
		Spec:       policyv1alpha1.ClusterTaintPolicySpec{AddOnConditions: add, RemoveOnConditions: remove, Taints: taints},
	}
}

func taint(key, value string, effect corev1.TaintEffect) policyv1alpha1.Taint {
	return policyv1alpha1.Taint{Key: key, Value: value, Effect: effect}
}

// failover is the default policy.
func failover() *policyv1alpha1.ClusterTaintPolicy {
	p := DefaultPolicy()
	p.CreationTimestamp = earlier
	return p
}

// targeting sets targetClusters to the named clusters.
func targeting(p *policyv1alpha1.ClusterTaintPolicy, names ...string) *policyv1alpha1.ClusterTaintPolicy {
	p.Spec.TargetClusters = &policyv1alpha1.ClusterAffinity{ClusterNames: names}
	return p
}

// added is a taint as decide adds it.
func added(key, value string, effect corev1.TaintEffect) corev1.Taint {
	t := metav1.NewTime(now)
	return corev1.Taint{Key: key, Value: value, Effect: effect, TimeAdded: &t}
}

// present is a taint the cluster already has, added earlier.
func present(key, value string, effect corev1.TaintEffect) corev1.Taint {
	t := earlier
	return corev1.Taint{Key: key, Value: value, Effect: effect, TimeAdded: &t}
}

func withTaints(b *builders.ClusterBuilder, taints ...corev1.Taint) *clusterv1alpha1.Cluster {
	c := b.Build()
	c.Spec.Taints = taints
	return c
}

func TestDecide(t *testing.T) {
	t.Parallel()
	in, notIn := policyv1alpha1.MatchConditionOpIn, policyv1alpha1.MatchConditionOpNotIn
	isTrue, isFalse, isUnknown := metav1.ConditionTrue, metav1.ConditionFalse, metav1.ConditionUnknown
	member1 := func() *builders.ClusterBuilder { return builders.NewCluster("member1") }
	gpuOn := []policyv1alpha1.MatchCondition{cond("GPUHealthy", in, isFalse)}
	gpuOff := []policyv1alpha1.MatchCondition{cond("GPUHealthy", in, isTrue)}
	gpu := taint("example.com/gpu", "broken", noExec)
	cases := []struct {
		name     string
		cluster  *clusterv1alpha1.Cluster
		policies []*policyv1alpha1.ClusterTaintPolicy
		want     []corev1.Taint // nil with changed false: the cluster's own
		changed  bool
	}{
		{
			name:     "The default policy taints a cluster whose Ready is False.",
			cluster:  member1().WithCondition("Ready", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
			want:     []corev1.Taint{added(notReady, "", noExec)},
			changed:  true,
		},
		{
			name:     "The default policy taints a cluster whose Ready is Unknown, after its other taints.",
			cluster:  withTaints(member1().WithCondition("Ready", isUnknown), present("team", "a", noSched)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
			want:     []corev1.Taint{present("team", "a", noSched), added(notReady, "", noExec)},
			changed:  true,
		},
		{
			name:     "A taint already present is kept with its time added.",
			cluster:  withTaints(member1().WithCondition("Ready", isFalse), present(notReady, "", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
		},
		{
			name:     "A taint of the same key and effect with another value counts as present.",
			cluster:  withTaints(member1().WithCondition("Ready", isFalse), present(notReady, "manual", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
		},
		{
			name: "The default policy removes its taint once Ready is True, leaving the others.",
			cluster: withTaints(member1().WithCondition("Ready", isTrue),
				present("team", "a", noSched), present(notReady, "", noExec), present("zone", "", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
			want:     []corev1.Taint{present("team", "a", noSched), present("zone", "", noExec)},
			changed:  true,
		},
		{
			name:     "A taint whose value differs from the policy's is not removed.",
			cluster:  withTaints(member1().WithCondition("Ready", isTrue), present(notReady, "manual", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
		},
		{
			name:     "Nothing changes for a ready cluster without the taint.",
			cluster:  member1().WithCondition("Ready", isTrue).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
		},
		{
			name:     "A cluster that reports no Ready yet is not tainted by In.",
			cluster:  member1().Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{failover()},
		},
		{
			name:    "A cluster that does not report the condition is not tainted by NotIn either.",
			cluster: member1().WithCondition("Ready", isTrue).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("gpu", 1, []policyv1alpha1.MatchCondition{cond("GPUHealthy", notIn, isTrue)}, nil, gpu)},
		},
		{
			name:    "NotIn holds for a reported status that is not listed.",
			cluster: member1().WithCondition("GPUHealthy", isUnknown).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("gpu", 1, []policyv1alpha1.MatchCondition{cond("GPUHealthy", notIn, isTrue)}, nil, gpu)},
			want:    []corev1.Taint{added("example.com/gpu", "broken", noExec)},
			changed: true,
		},
		{
			name:    "Add conditions are ANDed: one that fails adds nothing.",
			cluster: member1().WithCondition("Ready", isTrue).WithCondition("GPUHealthy", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("gpu", 1, append(gpuOn, cond("Ready", in, isFalse)), nil, gpu)},
		},
		{
			name:    "Remove conditions are ANDed: all holding removes the taint.",
			cluster: withTaints(member1().WithCondition("Ready", isTrue).WithCondition("GPUHealthy", isTrue), present("example.com/gpu", "broken", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("gpu", 1, gpuOn, append(gpuOff, cond("Ready", in, isTrue)), gpu)},
			want:    []corev1.Taint{},
			changed: true,
		},
		{
			name:     "A policy without add conditions never adds.",
			cluster:  member1().WithCondition("GPUHealthy", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{policy("gpu", 1, nil, gpuOff, gpu)},
		},
		{
			name:     "A policy without remove conditions never removes.",
			cluster:  withTaints(member1().WithCondition("GPUHealthy", isTrue), present("example.com/gpu", "broken", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{policy("gpu", 1, gpuOn, nil, gpu)},
		},
		{
			name:     "When add and remove conditions both hold, the taint is added.",
			cluster:  member1().WithCondition("GPUHealthy", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{policy("gpu", 1, gpuOn, gpuOn, gpu)},
			want:     []corev1.Taint{added("example.com/gpu", "broken", noExec)},
			changed:  true,
		},
		{
			name:     "A cluster the policy does not target keeps its taints, even when the remove conditions hold.",
			cluster:  withTaints(member1().WithCondition("Ready", isTrue), present(notReady, "", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{targeting(failover(), "member2")},
		},
		{
			name:     "A cluster the policy targets by name is tainted.",
			cluster:  member1().WithCondition("Ready", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{targeting(failover(), "member1")},
			want:     []corev1.Taint{added(notReady, "", noExec)},
			changed:  true,
		},
		{
			name:    "Policies never touch the cluster controller's NoSchedule not-ready and unreachable taints.",
			cluster: withTaints(member1().WithCondition("Ready", isTrue), present(clusterv1alpha1.TaintClusterUnreachable, "", noSched)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("ns", 1, []policyv1alpha1.MatchCondition{cond("Ready", in, isTrue)}, []policyv1alpha1.MatchCondition{cond("Ready", in, isTrue)},
					taint(notReady, "", noSched), taint(clusterv1alpha1.TaintClusterUnreachable, "", noSched))},
		},
		{
			name:    "Two policies with their own taints both act, the taints added in policy order.",
			cluster: member1().WithCondition("Ready", isFalse).WithCondition("GPUHealthy", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("gpu", 50, gpuOn, gpuOff, gpu), failover()},
			want:    []corev1.Taint{added(notReady, "", noExec), added("example.com/gpu", "broken", noExec)},
			changed: true,
		},
		{
			name:    "When policies disagree about a taint, the newest with an opinion wins: remove.",
			cluster: withTaints(member1().WithCondition("Ready", isFalse), present(notReady, "", noExec)),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("newer", 2, nil, []policyv1alpha1.MatchCondition{cond("Ready", in, isFalse)}, taint(notReady, "", noExec)),
				policy("older", 1, []policyv1alpha1.MatchCondition{cond("Ready", in, isFalse)}, nil, taint(notReady, "", noExec))},
			want:    []corev1.Taint{},
			changed: true,
		},
		{
			name:    "When policies disagree about a taint, the newest with an opinion wins: add.",
			cluster: member1().WithCondition("Ready", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("older", 1, nil, []policyv1alpha1.MatchCondition{cond("Ready", in, isFalse)}, taint(notReady, "", noExec)),
				policy("newer", 2, []policyv1alpha1.MatchCondition{cond("Ready", in, isFalse)}, nil, taint(notReady, "", noExec))},
			want:    []corev1.Taint{added(notReady, "", noExec)},
			changed: true,
		},
		{
			name:    "A newer policy whose conditions do not hold has no say.",
			cluster: member1().WithCondition("Ready", isFalse).Build(),
			policies: []*policyv1alpha1.ClusterTaintPolicy{
				policy("older", 1, []policyv1alpha1.MatchCondition{cond("Ready", in, isFalse)}, nil, taint(notReady, "", noExec)),
				policy("newer", 2, nil, []policyv1alpha1.MatchCondition{cond("Ready", in, isTrue)}, taint(notReady, "", noExec))},
			want:    []corev1.Taint{added(notReady, "", noExec)},
			changed: true,
		},
		{
			name:     "No policies change nothing.",
			cluster:  withTaints(member1().WithCondition("Ready", isFalse), present("team", "a", noSched)),
			policies: nil,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			before := tc.cluster.DeepCopy()
			got, changed := decide(tc.cluster, tc.policies, now)
			if changed != tc.changed {
				t.Errorf("changed = %v, want %v", changed, tc.changed)
			}
			want := tc.want
			if !tc.changed {
				want = before.Spec.Taints
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("taints (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(before, tc.cluster); diff != "" {
				t.Errorf("decide modified the cluster (-before +after):\n%s", diff)
			}
			// A second pass on the result changes nothing.
			again := tc.cluster.DeepCopy()
			again.Spec.Taints = got
			if _, changed := decide(again, tc.policies, now.Add(time.Minute)); changed {
				t.Errorf("a second pass changed the taints again")
			}
		})
	}
}
