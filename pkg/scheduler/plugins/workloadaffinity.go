package plugins

import (
	"context"

	"k8s.io/apimachinery/pkg/util/sets"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// WorkloadAffinityName is the registry name of the WorkloadAffinity filter.
const WorkloadAffinityName = "WorkloadAffinity"

// Reasons of the WorkloadAffinity filter.
const (
	ReasonAffinityGroupAbsent  = "cluster(s) did not run every workload of the affinity group"
	ReasonAntiAffinityGroupRan = "cluster(s) ran a workload of the anti-affinity group"
)

// WorkloadPeers tells where the scheduled workloads of a group run.
type WorkloadPeers interface {
	// Placed lists, for each scheduled ResourceBinding of namespace whose
	// affinity group (anti false) or anti-affinity group (anti true) is
	// group, but the one of template self, the clusters it targets.
	Placed(namespace, group string, anti bool, self workv1alpha2.ObjectReference) []sets.Set[string]
}

// WorkloadAffinity keeps a workload with, or away from, the workloads of
// its group (placement.workloadAffinity, resolved by the detector into
// spec.workloadAffinityGroups), as Karmada's filter does: with affinity, a
// cluster must already run every scheduled peer (no peer yet: any
// cluster); with anti-affinity, no peer may run there. A cluster the
// binding already targets always passes. Without peers to ask (a preview)
// it passes every cluster.
type WorkloadAffinity struct {
	peers WorkloadPeers
}

var (
	_ framework.PreFilterPlugin = &WorkloadAffinity{}
	_ framework.FilterPlugin    = &WorkloadAffinity{}
)

// NewWorkloadAffinity returns a factory of the plugin asking peers.
func NewWorkloadAffinity(peers WorkloadPeers) framework.PluginFactory {
	return func() (framework.Plugin, error) { return &WorkloadAffinity{peers: peers}, nil }
}

// Name returns WorkloadAffinityName.
func (p *WorkloadAffinity) Name() string { return WorkloadAffinityName }

const workloadGroupsKey framework.StateKey = "WorkloadAffinity"

// groupClusters are what the peers of a binding hold: allowed nil when
// affinity does not restrict.
type groupClusters struct {
	allowed, forbidden sets.Set[string]
}

// PreFilter gathers where the binding's peers run.
func (p *WorkloadAffinity) PreFilter(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus) *framework.Status {
	g := spec.WorkloadAffinityGroups
	if g == nil || p.peers == nil {
		return nil
	}
	var gc groupClusters
	if g.AffinityGroup != "" {
		for _, placed := range p.peers.Placed(spec.Resource.Namespace, g.AffinityGroup, false, spec.Resource) {
			if gc.allowed == nil {
				gc.allowed = placed.Clone()
			} else {
				gc.allowed = gc.allowed.Intersection(placed)
			}
		}
	}
	if g.AntiAffinityGroup != "" {
		gc.forbidden = sets.New[string]()
		for _, placed := range p.peers.Placed(spec.Resource.Namespace, g.AntiAffinityGroup, true, spec.Resource) {
			gc.forbidden = gc.forbidden.Union(placed)
		}
	}
	state.Write(workloadGroupsKey, gc)
	return nil
}

// Filter keeps the clusters the binding's groups allow.
func (p *WorkloadAffinity) Filter(_ context.Context, state *framework.CycleState, spec *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *framework.Status {
	v, ok := state.Read(workloadGroupsKey)
	if !ok || state.ScheduledClusters(spec).Has(cluster.Name) {
		return nil
	}
	gc := v.(groupClusters)
	switch {
	case gc.allowed != nil && !gc.allowed.Has(cluster.Name):
		return framework.NewStatus(framework.Unschedulable, ReasonAffinityGroupAbsent).WithPlugin(WorkloadAffinityName)
	case gc.forbidden.Has(cluster.Name):
		return framework.NewStatus(framework.Unschedulable, ReasonAntiAffinityGroupRan).WithPlugin(WorkloadAffinityName)
	}
	return nil
}
