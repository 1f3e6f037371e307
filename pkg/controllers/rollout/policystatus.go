package rollout

import (
	"context"
	"fmt"
	"sort"
	"time"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// policySettle is how long a policy's status waits for more changes of
// its rollouts before it is written.
const policySettle = 2 * time.Second

// countRollouts counts, by state, the Rollouts whose status names policy,
// and summarizes the first of them.
func countRollouts(rollouts []*rolloutv1alpha1.Rollout, policy rolloutv1alpha1.PolicyReference) rolloutv1alpha1.RolloutPolicyStatus {
	var st rolloutv1alpha1.RolloutPolicyStatus
	sort.Slice(rollouts, func(i, j int) bool {
		a, b := rollouts[i], rollouts[j]
		return a.Namespace < b.Namespace || a.Namespace == b.Namespace && a.Name < b.Name
	})
	for _, ro := range rollouts {
		if ro.Status.Policy != policy {
			continue
		}
		if len(st.Summaries) < rolloutv1alpha1.MaxSummaries {
			st.Summaries = append(st.Summaries, summary(ro))
		}
		st.Rollouts++
		switch ro.Status.State() {
		case rolloutv1alpha1.ConditionFailed:
			st.Failed++
		case rolloutv1alpha1.ConditionPaused:
			st.Paused++
		case rolloutv1alpha1.ConditionComplete:
			st.Complete++
		case rolloutv1alpha1.ConditionProgressing:
			st.Progressing++
		}
	}
	return st
}

// summary is where one rollout stands.
func summary(ro *rolloutv1alpha1.Rollout) rolloutv1alpha1.RolloutSummary {
	s := rolloutv1alpha1.RolloutSummary{Namespace: ro.Namespace, Name: ro.Name, Resource: ro.Spec.Resource,
		CurrentRevision: ro.Status.CurrentRevision, StableRevision: ro.Status.StableRevision, Wave: ro.Status.Wave, State: ro.Status.State()}
	for _, c := range ro.Status.Clusters {
		s.Clusters = append(s.Clusters, rolloutv1alpha1.ClusterSummary{Name: c.Name, Revision: c.Revision, Health: c.Health})
	}
	return s
}

// syncPolicy writes the counts of one policy's rollouts into its status.
func (r *Controller) syncPolicy(ctx context.Context, p rolloutv1alpha1.PolicyReference) error {
	all, err := r.rollouts.List(labels.Everything())
	if err != nil {
		return err
	}
	st := countRollouts(all, p)
	switch p.Kind {
	case rolloutv1alpha1.ResourceKindRolloutPolicy:
		rp, err := r.policies.namespaced.RolloutPolicies(p.Namespace).Get(p.Name)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		st.ObservedGeneration = rp.Generation
		if apiequality.Semantic.DeepEqual(rp.Status, st) {
			return nil
		}
		out := rp.DeepCopy()
		out.Status = st
		_, err = r.mco.RolloutV1alpha1().RolloutPolicies(p.Namespace).UpdateStatus(ctx, out, metav1.UpdateOptions{})
		return ignoreGone(err, "RolloutPolicy", p)
	case rolloutv1alpha1.ResourceKindClusterRolloutPolicy:
		crp, err := r.policies.cluster.Get(p.Name)
		if apierrors.IsNotFound(err) {
			return nil
		}
		if err != nil {
			return err
		}
		st.ObservedGeneration = crp.Generation
		if apiequality.Semantic.DeepEqual(crp.Status, st) {
			return nil
		}
		out := crp.DeepCopy()
		out.Status = st
		_, err = r.mco.RolloutV1alpha1().ClusterRolloutPolicies().UpdateStatus(ctx, out, metav1.UpdateOptions{})
		return ignoreGone(err, "ClusterRolloutPolicy", p)
	}
	return nil
}

func ignoreGone(err error, kind string, p rolloutv1alpha1.PolicyReference) error {
	if err == nil || apierrors.IsNotFound(err) {
		return nil
	}
	return fmt.Errorf("update status of %s %s: %w", kind, p.Name, err)
}

// policyHandlers queue the policies whose counts may have changed: those a
// Rollout names before and after a change, and a policy that changed.
func (r *Controller) policyHandlers() (rollouts, policies cache.ResourceEventHandler) {
	named := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if ro, ok := obj.(*rolloutv1alpha1.Rollout); ok && ro.Status.Policy.Name != "" {
			// Rollouts change in bursts: gather them into one write.
			r.policyLoop.EnqueueAfter(ro.Status.Policy, policySettle)
		}
	}
	rollouts = cache.ResourceEventHandlerFuncs{
		AddFunc: named,
		UpdateFunc: func(oldObj, newObj any) {
			o, n := oldObj.(*rolloutv1alpha1.Rollout), newObj.(*rolloutv1alpha1.Rollout)
			if o.Status.Policy != n.Status.Policy || !apiequality.Semantic.DeepEqual(summary(o), summary(n)) {
				named(oldObj)
				named(newObj)
			}
		},
		DeleteFunc: named,
	}
	policy := func(obj any) {
		switch p := obj.(type) {
		case *rolloutv1alpha1.RolloutPolicy:
			r.policyLoop.Enqueue(rolloutv1alpha1.PolicyReference{Kind: rolloutv1alpha1.ResourceKindRolloutPolicy, Namespace: p.Namespace, Name: p.Name})
		case *rolloutv1alpha1.ClusterRolloutPolicy:
			r.policyLoop.Enqueue(rolloutv1alpha1.PolicyReference{Kind: rolloutv1alpha1.ResourceKindClusterRolloutPolicy, Name: p.Name})
		}
	}
	policies = cache.ResourceEventHandlerFuncs{
		AddFunc: policy,
		UpdateFunc: func(oldObj, newObj any) {
			o, _ := oldObj.(metav1.Object)
			n, _ := newObj.(metav1.Object)
			if o != nil && n != nil && o.GetGeneration() != n.GetGeneration() {
				policy(newObj)
			}
		},
	}
	return rollouts, policies
}
