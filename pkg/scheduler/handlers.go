package scheduler

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/client-go/tools/cache"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
)

// bindingHandler queues new bindings and bindings whose spec changed.
func (s *Scheduler) bindingHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: s.enqueueBinding,
		UpdateFunc: func(oldObj, newObj any) {
			if generationOf(oldObj) != generationOf(newObj) || healthChanged(oldObj, newObj) || preservedStatusChanged(oldObj, newObj) {
				s.enqueueBinding(newObj)
			}
		},
	}
}

func (s *Scheduler) enqueueBinding(obj any) {
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		if s.responsibleFor(&b.Spec) {
			s.loop.Enqueue(binding.Key{Namespace: b.Namespace, Name: b.Name})
		}
	case *workv1alpha2.ClusterResourceBinding:
		if s.responsibleFor(&b.Spec) {
			s.loop.Enqueue(binding.Key{Name: b.Name})
		}
	}
}

// schedulingSuspended tells whether the binding's spec.suspension.scheduling
// keeps the scheduler away from it.
func schedulingSuspended(spec *workv1alpha2.ResourceBindingSpec) bool {
	return spec.Suspension != nil && spec.Suspension.Scheduling != nil && *spec.Suspension.Scheduling
}

func generationOf(obj any) int64 {
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		return b.Generation
	case *workv1alpha2.ClusterResourceBinding:
		return b.Generation
	}
	return 0
}

// responsibleFor tells whether this scheduler places the binding. A
// binding without placement is attached to the bindings that require it
// (a dependency) and goes where they go: it is not scheduled.
func (s *Scheduler) responsibleFor(spec *workv1alpha2.ResourceBindingSpec) bool {
	if spec.Placement == nil {
		return false
	}
	name := spec.SchedulerName
	if name == "" {
		name = DefaultSchedulerName
	}
	return name == s.name
}

// clusterHandler re-examines every binding when a cluster appears, goes or
// changes in a way that matters to placement. A change of capacity alone
// re-examines only the bindings that could not be placed: as in Karmada,
// a decision made stands until its binding or the clusters' placement
// inputs change (a cluster's resource summary moves with every pod its
// members start, and re-deciding every binding on each would cost the
// scheduler most of its time).
func (s *Scheduler) clusterHandler() cache.ResourceEventHandler {
	return cache.ResourceEventHandlerFuncs{
		AddFunc: func(any) { s.enqueueAll() },
		UpdateFunc: func(oldObj, newObj any) {
			oldC, ok1 := oldObj.(*clusterv1alpha1.Cluster)
			newC, ok2 := newObj.(*clusterv1alpha1.Cluster)
			if !ok1 || !ok2 {
				return
			}
			switch clusterChange(oldC, newC) {
			case placementChanged:
				s.enqueueAll()
			case capacityChanged:
				s.enqueueUnschedulable()
			}
		},
		DeleteFunc: func(any) { s.enqueueAll() },
	}
}

// clusterChangeKind is how a cluster's update bears on placement.
type clusterChangeKind int

const (
	// unchanged: heartbeats and the like.
	unchanged clusterChangeKind = iota
	// capacityChanged: only the resource summary moved.
	capacityChanged
	// placementChanged: labels, spec (region, zones, taints, ...),
	// readiness or APIs changed.
	placementChanged
)

// clusterChange compares what the plugins and the estimator read.
func clusterChange(a, b *clusterv1alpha1.Cluster) clusterChangeKind {
	if !apiequality.Semantic.DeepEqual(a.Labels, b.Labels) ||
		!apiequality.Semantic.DeepEqual(a.Spec, b.Spec) ||
		!apiequality.Semantic.DeepEqual(a.Status.APIEnablements, b.Status.APIEnablements) {
		return placementChanged
	}
	if len(a.Status.Conditions) != len(b.Status.Conditions) {
		return placementChanged
	}
	for i := range a.Status.Conditions {
		ca, cb := a.Status.Conditions[i], b.Status.Conditions[i]
		if ca.Type != cb.Type || ca.Status != cb.Status {
			return placementChanged
		}
	}
	if !apiequality.Semantic.DeepEqual(a.Status.ResourceSummary, b.Status.ResourceSummary) {
		return capacityChanged
	}
	return unchanged
}

// enqueueUnschedulable re-examines the bindings whose last attempt found
// no room.
func (s *Scheduler) enqueueUnschedulable() {
	for _, k := range s.pending.unschedulableKeys() {
		s.loop.Enqueue(k)
	}
}

func (s *Scheduler) enqueueAll() {
	rbs, _ := s.bindings.RB.List(everything)
	for _, b := range rbs {
		s.enqueueBinding(b)
	}
	crbs, _ := s.bindings.CRB.List(everything)
	for _, b := range crbs {
		s.enqueueBinding(b)
	}
}

// healthChanged tells, for a binding with application failover, whether
// the workload's health in some cluster changed (its toleration starts or
// ends then).
func healthChanged(oldObj, newObj any) bool {
	oldSpec, oldStatus := specAndStatus(oldObj)
	newSpec, newStatus := specAndStatus(newObj)
	if newSpec == nil || newSpec.Failover == nil || newSpec.Failover.Application == nil || oldSpec == nil {
		return false
	}
	health := func(st *workv1alpha2.ResourceBindingStatus) map[string]workv1alpha2.ResourceHealth {
		m := map[string]workv1alpha2.ResourceHealth{}
		for _, it := range st.AggregatedStatus {
			m[it.ClusterName] = it.Health
		}
		return m
	}
	return !apiequality.Semantic.DeepEqual(health(oldStatus), health(newStatus))
}

// preservedStatusChanged tells whether the workload's reported status
// changed in a binding whose cluster failover preserves state: the state
// is read while the cluster still reports it (lastStates).
func preservedStatusChanged(oldObj, newObj any) bool {
	_, oldStatus := specAndStatus(oldObj)
	newSpec, newStatus := specAndStatus(newObj)
	if newSpec == nil || oldStatus == nil || newSpec.Failover == nil || newSpec.Failover.Cluster == nil || newSpec.Failover.Cluster.StatePreservation == nil {
		return false
	}
	return !apiequality.Semantic.DeepEqual(oldStatus.AggregatedStatus, newStatus.AggregatedStatus)
}

func specAndStatus(obj any) (*workv1alpha2.ResourceBindingSpec, *workv1alpha2.ResourceBindingStatus) {
	switch b := obj.(type) {
	case *workv1alpha2.ResourceBinding:
		return &b.Spec, &b.Status
	case *workv1alpha2.ClusterResourceBinding:
		return &b.Spec, &b.Status
	}
	return nil, nil
}
