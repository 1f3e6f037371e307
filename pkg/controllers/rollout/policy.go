package rollout

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	rolloutlisters "github.com/mco-org/mco/pkg/generated/listers/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

// policies finds the RolloutPolicy or ClusterRolloutPolicy governing a
// template.
type policies struct {
	namespaced rolloutlisters.RolloutPolicyLister
	cluster    rolloutlisters.ClusterRolloutPolicyLister
}

// governing returns the spec and a reference of the policy that governs
// tmpl: the most specific, as for propagation (a RolloutPolicy over a
// ClusterRolloutPolicy, then name over label selector over kind, then the
// smaller name). False when none selects it.
func (p policies) governing(tmpl *unstructured.Unstructured) (*rolloutv1alpha1.RolloutPolicySpec, rolloutv1alpha1.PolicyReference, bool) {
	var candidates []placement.Candidate
	if ns := tmpl.GetNamespace(); ns != "" {
		list, _ := p.namespaced.RolloutPolicies(ns).List(labels.Everything())
		for _, rp := range list {
			candidates = append(candidates, placement.Candidate{Namespace: rp.Namespace, Name: rp.Name,
				Selectors: rp.Spec.ResourceSelectors, Deleting: rp.DeletionTimestamp != nil, Policy: rp})
		}
	}
	list, _ := p.cluster.List(labels.Everything())
	for _, crp := range list {
		candidates = append(candidates, placement.Candidate{Name: crp.Name, IsCluster: true,
			Selectors: crp.Spec.ResourceSelectors, Deleting: crp.DeletionTimestamp != nil, Policy: crp})
	}
	best, ok := placement.BestPolicy(tmpl, candidates)
	if !ok {
		return nil, rolloutv1alpha1.PolicyReference{}, false
	}
	switch pol := best.Policy.(type) {
	case *rolloutv1alpha1.RolloutPolicy:
		return &pol.Spec, rolloutv1alpha1.PolicyReference{Kind: rolloutv1alpha1.ResourceKindRolloutPolicy, Namespace: pol.Namespace, Name: pol.Name}, true
	case *rolloutv1alpha1.ClusterRolloutPolicy:
		return &pol.Spec, rolloutv1alpha1.PolicyReference{Kind: rolloutv1alpha1.ResourceKindClusterRolloutPolicy, Name: pol.Name}, true
	}
	return nil, rolloutv1alpha1.PolicyReference{}, false
}

// any tells, cheaply, whether some policy could govern a template of
// namespace (empty for a cluster-scoped one): most templates have none,
// and are then not read at all.
func (p policies) any(namespace string) bool {
	if list, _ := p.cluster.List(labels.Everything()); len(list) > 0 {
		return true
	}
	if namespace == "" {
		return false
	}
	list, _ := p.namespaced.RolloutPolicies(namespace).List(labels.Everything())
	return len(list) > 0
}

// selection is what one policy selects: its resource selectors, within
// its namespace unless it is a ClusterRolloutPolicy.
type selection struct {
	cluster   bool
	namespace string
	selectors []policyv1alpha1.ResourceSelector
}

// selectionOf is the selection of a RolloutPolicy or ClusterRolloutPolicy;
// false for anything else.
func selectionOf(obj any) (selection, bool) {
	switch p := obj.(type) {
	case *rolloutv1alpha1.RolloutPolicy:
		return selection{namespace: p.Namespace, selectors: p.Spec.ResourceSelectors}, true
	case *rolloutv1alpha1.ClusterRolloutPolicy:
		return selection{cluster: true, selectors: p.Spec.ResourceSelectors}, true
	}
	return selection{}, false
}

// selects tells whether the policy may select the template ref names:
// by placement's rule on tmpl when the template is known, and, when it is
// not (nil: not in the cache yet), by the same rule with any label
// selector taken as matching. A binding queued for nothing costs one sync;
// one missed would keep a rollout its policy no longer describes.
func (s selection) selects(ref workv1alpha2.ObjectReference, tmpl *unstructured.Unstructured) bool {
	if !s.cluster && ref.Namespace != s.namespace {
		return false
	}
	if tmpl != nil {
		return placement.SelectorPriority(tmpl, s.selectors) > placement.PriorityMisMatch
	}
	for _, sel := range s.selectors {
		sel.LabelSelector = nil
		if placement.ResourceMatches(stub(ref), sel) {
			return true
		}
	}
	return false
}

// stub stands for the template ref names when only the reference is known.
func stub(ref workv1alpha2.ObjectReference) *unstructured.Unstructured {
	u := &unstructured.Unstructured{}
	u.SetAPIVersion(ref.APIVersion)
	u.SetKind(ref.Kind)
	u.SetNamespace(ref.Namespace)
	u.SetName(ref.Name)
	return u
}
