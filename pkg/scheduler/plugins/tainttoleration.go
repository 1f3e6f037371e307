/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package plugins

import (
	"context"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// TaintTolerationName is the registry name of the TaintToleration filter.
const TaintTolerationName = "TaintToleration"

// UntoleratedTaintReason is the reason given for a cluster with a NoSchedule
// or NoExecute taint the placement does not tolerate. The taint is printed
// as {key: value}, the form users see in the binding's Scheduled condition,
// e.g. "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }".
func UntoleratedTaintReason(taint *corev1.Taint) string {
	return "cluster(s) had untolerated taint {" + taint.Key + ": " + taint.Value + "}"
}

// TaintToleration keeps a cluster only if placement.clusterTolerations
// tolerate all its NoSchedule and NoExecute taints (PreferNoSchedule is
// ignored).
//
// Clusters that already hold the binding (spec.clusters) are never filtered
// here: moving a workload off a tainted cluster is the taint manager's job,
// which does it gracefully through an eviction task (and the ClusterEviction
// filter then keeps the scheduler away).
type TaintToleration struct{}

var _ framework.FilterPlugin = &TaintToleration{}

// NewTaintToleration builds the plugin.
func NewTaintToleration() (framework.Plugin, error) {
	return &TaintToleration{}, nil
}

// Name returns TaintTolerationName.
func (p *TaintToleration) Name() string {
	return TaintTolerationName
}

// Filter rejects a new cluster with an untolerated NoSchedule or NoExecute
// taint, reporting the first such taint.
func (p *TaintToleration) Filter(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *framework.Status {
	taints := cluster.Spec.Taints
	if len(taints) == 0 || state.ScheduledClusters(spec).Has(cluster.Name) {
		return nil
	}
	var tolerations []corev1.Toleration
	if spec.Placement != nil {
		tolerations = spec.Placement.ClusterTolerations
	}
	for i := range taints {
		taint := &taints[i]
		if taint.Effect != corev1.TaintEffectNoSchedule && taint.Effect != corev1.TaintEffectNoExecute {
			continue
		}
		if !tolerated(tolerations, taint) {
			return untoleratedStatus(state, taint)
		}
	}
	return nil
}

// taintStatusKey is where the statuses built for this binding are kept.
const taintStatusKey framework.StateKey = TaintTolerationName + "/statuses"

// taintStatus is the status built for one key, value and effect.
type taintStatus struct {
	key, value string
	effect     corev1.TaintEffect
	status     *framework.Status
}

// untoleratedStatus returns the status for the taint, built once per binding
// and taint: fleets tend to share a few taints (not-ready, unreachable), so
// this avoids formatting a message for every rejected cluster.
func untoleratedStatus(state *framework.CycleState, taint *corev1.Taint) *framework.Status {
	var cache *[]taintStatus
	if v, ok := state.Read(taintStatusKey); ok {
		cache = v.(*[]taintStatus)
	} else {
		cache = &[]taintStatus{}
		state.Write(taintStatusKey, cache)
	}
	for _, e := range *cache {
		if e.key == taint.Key && e.value == taint.Value && e.effect == taint.Effect {
			return e.status
		}
	}
	st := framework.NewStatus(framework.Unschedulable, UntoleratedTaintReason(taint)).WithPlugin(TaintTolerationName)
	*cache = append(*cache, taintStatus{key: taint.Key, value: taint.Value, effect: taint.Effect, status: st})
	return st
}

// tolerated tells whether any toleration matches the taint, by the
// Kubernetes rules (corev1.Toleration.ToleratesTaint). The numeric operators
// Lt and Gt never match, as in Karmada.
func tolerated(tolerations []corev1.Toleration, taint *corev1.Taint) bool {
	for i := range tolerations {
		if tolerations[i].ToleratesTaint(klog.Background(), taint, false) {
			return true
		}
	}
	return false
}
