package binding

import (
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Template is what a binding's owner reference needs of its template.
type Template interface {
	metav1.Object
	GetAPIVersion() string
	GetKind() string
}

// MergePolicyFields copies the fields a propagation policy (or a
// MultiClusterService in its place) decides from want into have, and
// reports whether anything changed. Fields others write (clusters by the
// scheduler, eviction tasks, requiredBy, suspension.scheduling) stay.
func MergePolicyFields(have *workv1alpha2.ResourceBindingSpec, want workv1alpha2.ResourceBindingSpec) bool {
	before := have.DeepCopy()
	have.Resource = want.Resource
	have.Replicas = want.Replicas
	have.ReplicaRequirements = want.ReplicaRequirements
	have.Components = want.Components
	have.Placement = want.Placement
	have.PropagateDeps = want.PropagateDeps
	have.SchedulerName = want.SchedulerName
	have.Failover = want.Failover
	have.ConflictResolution = want.ConflictResolution
	have.PreserveResourcesOnDeletion = want.PreserveResourcesOnDeletion
	have.SchedulePriority = want.SchedulePriority
	have.WorkloadAffinityGroups = want.WorkloadAffinityGroups
	if want.Suspension == nil {
		if have.Suspension != nil {
			have.Suspension.Suspension = policyv1alpha1.Suspension{}
			if have.Suspension.Scheduling == nil {
				have.Suspension = nil
			}
		}
	} else {
		scheduling := (*bool)(nil)
		if have.Suspension != nil {
			scheduling = have.Suspension.Scheduling
		}
		have.Suspension = want.Suspension.DeepCopy()
		have.Suspension.Scheduling = scheduling
	}
	return !apiequality.Semantic.DeepEqual(before, have)
}

// OwnerReference points a binding at its template, as Karmada does.
func OwnerReference(obj Template) metav1.OwnerReference {
	return metav1.OwnerReference{
		APIVersion: obj.GetAPIVersion(), Kind: obj.GetKind(), Name: obj.GetName(), UID: obj.GetUID(),
		Controller: ptr.To(true), BlockOwnerDeletion: ptr.To(true),
	}
}

// SetOwner makes ref the binding's controller reference; it reports change.
func SetOwner(m *metav1.ObjectMeta, ref metav1.OwnerReference) bool {
	for i := range m.OwnerReferences {
		if m.OwnerReferences[i].UID == ref.UID {
			if apiequality.Semantic.DeepEqual(m.OwnerReferences[i], ref) {
				return false
			}
			m.OwnerReferences[i] = ref
			return true
		}
	}
	m.OwnerReferences = append(m.OwnerReferences, ref)
	return true
}
