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
	"fmt"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// ClusterAffinityName is the registry name of the ClusterAffinity filter.
const ClusterAffinityName = "ClusterAffinity"

// ReasonAffinityMismatch is the reason given for a cluster the cluster
// affinity does not select.
const ReasonAffinityMismatch = "cluster(s) did not match the placement cluster affinity"

// affinityKey is where PreFilter leaves the compiled affinity.
const affinityKey framework.StateKey = ClusterAffinityName + "/matcher"

var affinityMismatch = framework.NewStatus(framework.Unschedulable, ReasonAffinityMismatch).WithPlugin(ClusterAffinityName)

// ClusterAffinity keeps the clusters selected by the cluster affinity in
// force: exclude, clusterNames, labelSelector and fieldSelector must all
// agree. The affinity is, in order of preference: the one set on the
// CycleState (the scheduler sets it while trying clusterAffinities terms);
// placement.clusterAffinity; the clusterAffinities term named by
// status.schedulerObservingAffinityName; the first term. No affinity at all
// selects every cluster.
type ClusterAffinity struct{}

var (
	_ framework.PreFilterPlugin = &ClusterAffinity{}
	_ framework.FilterPlugin    = &ClusterAffinity{}
)

// NewClusterAffinity builds the plugin.
func NewClusterAffinity() (framework.Plugin, error) {
	return &ClusterAffinity{}, nil
}

// Name returns ClusterAffinityName.
func (p *ClusterAffinity) Name() string {
	return ClusterAffinityName
}

// PreFilter compiles the affinity once for the binding. A selector that
// does not compile is an Error: validation should have refused it.
func (p *ClusterAffinity) PreFilter(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	status *workv1alpha2.ResourceBindingStatus) *framework.Status {
	_, st := p.matcher(state, spec, status)
	return st
}

// Filter rejects clusters the affinity does not select.
func (p *ClusterAffinity) Filter(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	status *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *framework.Status {
	m, st := p.matcher(state, spec, status)
	if !st.IsSuccess() {
		return st
	}
	if m.Matches(cluster) {
		return nil
	}
	return affinityMismatch
}

// matcher returns the compiled affinity from the state, compiling and
// storing it on first use (so Filter also works without PreFilter).
func (p *ClusterAffinity) matcher(state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	status *workv1alpha2.ResourceBindingStatus) (*placement.AffinityMatcher, *framework.Status) {
	if v, ok := state.Read(affinityKey); ok {
		return v.(*placement.AffinityMatcher), nil
	}
	m, err := placement.CompileAffinity(effectiveAffinity(state, spec, status))
	if err != nil {
		return nil, framework.AsStatus(fmt.Errorf("cluster affinity: %w", err)).WithPlugin(ClusterAffinityName)
	}
	state.Write(affinityKey, m)
	return m, nil
}

// effectiveAffinity picks the affinity in force, as described on
// ClusterAffinity.
func effectiveAffinity(state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	status *workv1alpha2.ResourceBindingStatus) *policyv1alpha1.ClusterAffinity {
	if affinity, ok := state.ClusterAffinity(); ok {
		return affinity
	}
	pl := spec.Placement
	if pl == nil {
		return nil
	}
	if pl.ClusterAffinity != nil || len(pl.ClusterAffinities) == 0 {
		return pl.ClusterAffinity
	}
	if status != nil {
		for i := range pl.ClusterAffinities {
			if pl.ClusterAffinities[i].AffinityName == status.SchedulerObservedAffinityName {
				return &pl.ClusterAffinities[i].ClusterAffinity
			}
		}
	}
	return &pl.ClusterAffinities[0].ClusterAffinity
}

// AffinityMatcher tests clusters against one ClusterAffinity, compiled once;
// the scheduler uses it for static weight rules.
type AffinityMatcher = placement.AffinityMatcher

// NewAffinityMatcher compiles an affinity; nil selects every cluster.
func NewAffinityMatcher(affinity *policyv1alpha1.ClusterAffinity) (*AffinityMatcher, error) {
	return placement.CompileAffinity(affinity)
}
