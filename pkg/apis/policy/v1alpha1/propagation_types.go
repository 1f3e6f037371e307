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

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PropagationPolicy says which resource templates of its own namespace go to
// which member clusters, and how.
type PropagationPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the user asks for.
	// +required
	Spec PropagationSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PropagationPolicyList is a page of PropagationPolicy objects.
type PropagationPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []PropagationPolicy `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterPropagationPolicy is the cluster-scoped form of PropagationPolicy. It
// can pick cluster-scoped resources and resources of any non-system namespace.
type ClusterPropagationPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what the user asks for.
	// +required
	Spec PropagationSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterPropagationPolicyList is a page of ClusterPropagationPolicy objects.
type ClusterPropagationPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ClusterPropagationPolicy `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// PropagationSpec is the body shared by PropagationPolicy and
// ClusterPropagationPolicy.
type PropagationSpec struct {
	// ResourceSelectors picks the resource templates this policy claims. At
	// least one is needed; an empty list never means "everything".
	// +required
	ResourceSelectors []ResourceSelector `json:"resourceSelectors" protobuf:"bytes,1,rep,name=resourceSelectors"`

	// Association is the old name of PropagateDeps.
	// Deprecated: use PropagateDeps.
	// +optional
	Association bool `json:"association,omitempty" protobuf:"varint,2,opt,name=association"`

	// PropagateDeps, when true, also sends the ConfigMaps, Secrets and other
	// objects a selected workload refers to, and moves them with it on failover.
	// +optional
	PropagateDeps bool `json:"propagateDeps,omitempty" protobuf:"varint,3,opt,name=propagateDeps"`

	// Placement says which clusters may receive the resources and how replicas
	// are split between them.
	// +optional
	Placement Placement `json:"placement,omitempty" protobuf:"bytes,4,opt,name=placement"`

	// Priority ranks this policy against others matching the same resource;
	// higher wins. Unset means 0.
	// +optional
	Priority *int32 `json:"priority,omitempty" protobuf:"varint,5,opt,name=priority"`

	// Preemption says whether this policy may take over resources already
	// claimed by a lower-priority policy: Always or Never (the default).
	// +optional
	Preemption PreemptionBehavior `json:"preemption,omitempty" protobuf:"bytes,6,opt,name=preemption,casttype=PreemptionBehavior"`

	// DependentOverrides names OverridePolicies in the same namespace that
	// must exist before this policy takes effect.
	// +optional
	DependentOverrides []string `json:"dependentOverrides,omitempty" protobuf:"bytes,7,rep,name=dependentOverrides"`

	// SchedulerName picks the scheduler that places the resources; empty means
	// the default scheduler.
	// +optional
	SchedulerName string `json:"schedulerName,omitempty" protobuf:"bytes,8,opt,name=schedulerName"`

	// Failover says how applications move away from failing clusters. Nil
	// leaves application failover off.
	// +optional
	Failover *FailoverBehavior `json:"failover,omitempty" protobuf:"bytes,9,opt,name=failover"`

	// ConflictResolution says what to do when the resource already exists in a
	// member cluster: Abort (the default) or Overwrite.
	// +optional
	ConflictResolution ConflictResolution `json:"conflictResolution,omitempty" protobuf:"bytes,10,opt,name=conflictResolution,casttype=ConflictResolution"`

	// ActivationPreference set to Lazy makes policy edits wait until each
	// resource template itself changes. Empty applies edits at once.
	// +optional
	ActivationPreference ActivationPreference `json:"activationPreference,omitempty" protobuf:"bytes,11,opt,name=activationPreference,casttype=ActivationPreference"`

	// Suspension pauses parts of the propagation. Nil means nothing is paused.
	// +optional
	Suspension *Suspension `json:"suspension,omitempty" protobuf:"bytes,12,opt,name=suspension"`

	// PreserveResourcesOnDeletion, when true, keeps the copies in member
	// clusters after the resource template is deleted. Deleting the policy
	// itself never removes anything.
	// +optional
	PreserveResourcesOnDeletion *bool `json:"preserveResourcesOnDeletion,omitempty" protobuf:"varint,13,opt,name=preserveResourcesOnDeletion"`

	// SchedulePriority gives the selected workloads a scheduling priority
	// taken from a PriorityClass (alpha).
	// +optional
	SchedulePriority *SchedulePriority `json:"schedulePriority,omitempty" protobuf:"bytes,14,opt,name=schedulePriority"`
}

// ResourceSelector matches resource templates by type and, optionally, by
// namespace, name or labels.
type ResourceSelector struct {
	// APIVersion of the resources, e.g. "apps/v1".
	// +required
	APIVersion string `json:"apiVersion" protobuf:"bytes,1,opt,name=apiVersion"`

	// Kind of the resources, e.g. "Deployment".
	// +required
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`

	// Namespace of the resources; empty means the namespace of the policy.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`

	// Name of one resource; empty matches every name.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,4,opt,name=name"`

	// LabelSelector narrows the match by labels. It is ignored when Name is set.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,5,opt,name=labelSelector"`
}

// Suspension pauses propagation, either everywhere or on some clusters.
type Suspension struct {
	// Dispatching set to true stops sending changes to every cluster. Only
	// true is meaningful; it cannot be combined with DispatchingOnClusters.
	// +optional
	Dispatching *bool `json:"dispatching,omitempty" protobuf:"varint,1,opt,name=dispatching"`

	// DispatchingOnClusters stops sending changes to the listed clusters only.
	// +optional
	DispatchingOnClusters *SuspendClusters `json:"dispatchingOnClusters,omitempty" protobuf:"bytes,2,opt,name=dispatchingOnClusters"`
}

// SuspendClusters lists the clusters to pause, by name.
type SuspendClusters struct {
	// ClusterNames are the clusters to pause.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty" protobuf:"bytes,1,rep,name=clusterNames"`
}

// SchedulePriority says where a workload's scheduling priority comes from.
type SchedulePriority struct {
	// PriorityClassSource is where the PriorityClass is looked up. Only
	// KubePriorityClass is accepted today.
	// +required
	PriorityClassSource PriorityClassSource `json:"priorityClassSource" protobuf:"bytes,1,opt,name=priorityClassSource,casttype=PriorityClassSource"`

	// PriorityClassName is the PriorityClass to use.
	// +required
	PriorityClassName string `json:"priorityClassName" protobuf:"bytes,2,opt,name=priorityClassName"`
}
