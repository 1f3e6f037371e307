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
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the user asks for.
	// +required
	Spec PropagationSpec `json:"spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// PropagationPolicyList is a page of PropagationPolicy objects.
type PropagationPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []PropagationPolicy `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterPropagationPolicy is the cluster-scoped form of PropagationPolicy. It
// can pick cluster-scoped resources and resources of any non-system namespace.
type ClusterPropagationPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec is what the user asks for.
	// +required
	Spec PropagationSpec `json:"spec"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterPropagationPolicyList is a page of ClusterPropagationPolicy objects.
type ClusterPropagationPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterPropagationPolicy `json:"items"`
}

// PropagationSpec is the body shared by PropagationPolicy and
// ClusterPropagationPolicy.
type PropagationSpec struct {
	// ResourceSelectors picks the resource templates this policy claims. At
	// least one is needed; an empty list never means "everything".
	// +required
	ResourceSelectors []ResourceSelector `json:"resourceSelectors"`

	// Association is the old name of PropagateDeps.
	// Deprecated: use PropagateDeps.
	// +optional
	Association bool `json:"association,omitempty"`

	// PropagateDeps, when true, also sends the ConfigMaps, Secrets and other
	// objects a selected workload refers to, and moves them with it on failover.
	// +optional
	PropagateDeps bool `json:"propagateDeps,omitempty"`

	// Placement says which clusters may receive the resources and how replicas
	// are split between them.
	// +optional
	Placement Placement `json:"placement,omitempty"`

	// Priority ranks this policy against others matching the same resource;
	// higher wins. Unset means 0.
	// +optional
	Priority *int32 `json:"priority,omitempty"`

	// Preemption says whether this policy may take over resources already
	// claimed by a lower-priority policy: Always or Never (the default).
	// +optional
	Preemption PreemptionBehavior `json:"preemption,omitempty"`

	// DependentOverrides names OverridePolicies in the same namespace that
	// must exist before this policy takes effect.
	// +optional
	DependentOverrides []string `json:"dependentOverrides,omitempty"`

	// SchedulerName picks the scheduler that places the resources; empty means
	// the default scheduler.
	// +optional
	SchedulerName string `json:"schedulerName,omitempty"`

	// Failover says how applications move away from failing clusters. Nil
	// leaves application failover off.
	// +optional
	Failover *FailoverBehavior `json:"failover,omitempty"`

	// ConflictResolution says what to do when the resource already exists in a
	// member cluster: Abort (the default) or Overwrite.
	// +optional
	ConflictResolution ConflictResolution `json:"conflictResolution,omitempty"`

	// ActivationPreference set to Lazy makes policy edits wait until each
	// resource template itself changes. Empty applies edits at once.
	// +optional
	ActivationPreference ActivationPreference `json:"activationPreference,omitempty"`

	// Suspension pauses parts of the propagation. Nil means nothing is paused.
	// +optional
	Suspension *Suspension `json:"suspension,omitempty"`

	// PreserveResourcesOnDeletion, when true, keeps the copies in member
	// clusters after the resource template is deleted. Deleting the policy
	// itself never removes anything.
	// +optional
	PreserveResourcesOnDeletion *bool `json:"preserveResourcesOnDeletion,omitempty"`

	// SchedulePriority gives the selected workloads a scheduling priority
	// taken from a PriorityClass (alpha).
	// +optional
	SchedulePriority *SchedulePriority `json:"schedulePriority,omitempty"`
}

// ResourceSelector matches resource templates by type and, optionally, by
// namespace, name or labels.
type ResourceSelector struct {
	// APIVersion of the resources, e.g. "apps/v1".
	// +required
	APIVersion string `json:"apiVersion"`

	// Kind of the resources, e.g. "Deployment".
	// +required
	Kind string `json:"kind"`

	// Namespace of the resources; empty means the namespace of the policy.
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// Name of one resource; empty matches every name.
	// +optional
	Name string `json:"name,omitempty"`

	// LabelSelector narrows the match by labels. It is ignored when Name is set.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`
}

// Suspension pauses propagation, either everywhere or on some clusters.
type Suspension struct {
	// Dispatching set to true stops sending changes to every cluster. Only
	// true is meaningful; it cannot be combined with DispatchingOnClusters.
	// +optional
	Dispatching *bool `json:"dispatching,omitempty"`

	// DispatchingOnClusters stops sending changes to the listed clusters only.
	// +optional
	DispatchingOnClusters *SuspendClusters `json:"dispatchingOnClusters,omitempty"`
}

// SuspendClusters lists the clusters to pause, by name.
type SuspendClusters struct {
	// ClusterNames are the clusters to pause.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty"`
}

// SchedulePriority says where a workload's scheduling priority comes from.
type SchedulePriority struct {
	// PriorityClassSource is where the PriorityClass is looked up. Only
	// KubePriorityClass is accepted today.
	// +required
	PriorityClassSource PriorityClassSource `json:"priorityClassSource"`

	// PriorityClassName is the PriorityClass to use.
	// +required
	PriorityClassName string `json:"priorityClassName"`
}
