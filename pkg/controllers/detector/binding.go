package detector

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/placement"
	"github.com/mco-org/mco/pkg/workload"
)

// bindingKey is the binding of a template: a ResourceBinding beside a
// namespaced template, a ClusterResourceBinding for a cluster-scoped one.
func bindingKey(obj *unstructured.Unstructured) binding.Key {
	return binding.Key{Namespace: obj.GetNamespace(), Name: names.Binding(obj.GetKind(), obj.GetName())}
}

// policySpec returns the propagation spec of a candidate.
func policySpec(c placement.Candidate) *policyv1alpha1.PropagationSpec {
	switch p := c.Policy.(type) {
	case *policyv1alpha1.PropagationPolicy:
		return &p.Spec
	case *policyv1alpha1.ClusterPropagationPolicy:
		return &p.Spec
	}
	return nil
}

// desiredSpec is the binding spec the detector owns, from the template and
// the claiming policy. Fields written by others (clusters by the
// scheduler, eviction tasks, requiredBy) are not set here.
func desiredSpec(obj *unstructured.Unstructured, w workload.Interpretation, p *policyv1alpha1.PropagationSpec) workv1alpha2.ResourceBindingSpec {
	spec := workv1alpha2.ResourceBindingSpec{
		Resource: workv1alpha2.ObjectReference{
			APIVersion: obj.GetAPIVersion(), Kind: obj.GetKind(), Namespace: obj.GetNamespace(), Name: obj.GetName(),
			UID: obj.GetUID(), ResourceVersion: obj.GetResourceVersion(),
		},
		Replicas:                    w.Replicas,
		ReplicaRequirements:         w.Requirements,
		Components:                  w.Components,
		Placement:                   p.Placement.DeepCopy(),
		PropagateDeps:               p.PropagateDeps,
		SchedulerName:               p.SchedulerName,
		Failover:                    p.Failover.DeepCopy(),
		ConflictResolution:          p.ConflictResolution,
		PreserveResourcesOnDeletion: copyBool(p.PreserveResourcesOnDeletion),
	}
	if p.Suspension != nil {
		spec.Suspension = &workv1alpha2.Suspension{Suspension: *p.Suspension.DeepCopy()}
	}
	spec.WorkloadAffinityGroups = workloadGroups(obj, p.Placement.WorkloadAffinity)
	return spec
}

func copyBool(b *bool) *bool {
	if b == nil {
		return nil
	}
	v := *b
	return &v
}
