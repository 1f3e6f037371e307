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

package v1alpha2

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// ObjectReference identifies a resource template on the control plane.
type ObjectReference struct {
	// APIVersion is the template's group/version.
	// +required
	APIVersion string `json:"apiVersion"`

	// Kind is the template's kind.
	// +required
	Kind string `json:"kind"`

	// Namespace of the template; empty for cluster-scoped kinds.
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// Name of the template.
	// +required
	Name string `json:"name"`

	// UID of the template.
	// +optional
	UID types.UID `json:"uid,omitempty"`

	// ResourceVersion of the template when the binding last looked at it.
	// +optional
	ResourceVersion string `json:"resourceVersion,omitempty"`
}

// ReplicaRequirements describes what a single replica needs from a member cluster.
type ReplicaRequirements struct {
	// NodeClaim carries the node constraints each replica is bound by.
	// +optional
	NodeClaim *NodeClaim `json:"nodeClaim,omitempty"`

	// ResourceRequest is the compute each replica asks for.
	// +optional
	ResourceRequest corev1.ResourceList `json:"resourceRequest,omitempty"`

	// Namespace the replicas run in.
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// PriorityClassName of the replicas' pods.
	// +optional
	PriorityClassName string `json:"priorityClassName,omitempty"`
}

// Component is one pod template of a workload that has several of them.
type Component struct {
	// Name identifies the component; unique within the workload.
	// +required
	Name string `json:"name"`

	// Replicas is how many pods this component wants.
	// +required
	Replicas int32 `json:"replicas"`

	// ReplicaRequirements describes what one pod of this component needs.
	// +optional
	ReplicaRequirements *ComponentReplicaRequirements `json:"replicaRequirements,omitempty"`
}

// ComponentReplicaRequirements is the per-pod need of one component.
type ComponentReplicaRequirements struct {
	// NodeClaim carries the node constraints each pod is bound by.
	// +optional
	NodeClaim *NodeClaim `json:"nodeClaim,omitempty"`

	// ResourceRequest is the compute each pod asks for.
	// +optional
	ResourceRequest corev1.ResourceList `json:"resourceRequest,omitempty"`

	// PriorityClassName of the component's pods.
	// +optional
	PriorityClassName string `json:"priorityClassName,omitempty"`
}

// NodeClaim gathers the hard node constraints taken from a pod template.
type NodeClaim struct {
	// HardNodeAffinity is the template's required node affinity.
	// +optional
	HardNodeAffinity *corev1.NodeSelector `json:"hardNodeAffinity,omitempty"`

	// NodeSelector is the template's node label selector.
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty"`

	// Tolerations are the template's pod tolerations.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty"`
}

// TargetCluster is one member cluster picked by the scheduler.
type TargetCluster struct {
	// Name of the member cluster.
	// +required
	Name string `json:"name"`

	// Replicas assigned to this cluster.
	// +optional
	Replicas int32 `json:"replicas,omitempty"`

	// Components splits the assignment per component, for multi-template workloads only.
	// +optional
	Components []TargetComponent `json:"components,omitempty"`
}

// TargetComponent is how many replicas of one component go to a cluster.
type TargetComponent struct {
	// Name matches an entry of spec.components.
	// +required
	Name string `json:"name"`

	// Replicas of that component placed in the cluster.
	// +required
	Replicas int32 `json:"replicas"`
}

// GracefulEvictionTask records a cluster the resource is being moved away from.
type GracefulEvictionTask struct {
	// FromCluster is the cluster being evicted from.
	// +required
	FromCluster string `json:"fromCluster"`

	// PurgeMode says how the old copy is removed from FromCluster.
	// +optional
	PurgeMode policyv1alpha1.PurgeMode `json:"purgeMode,omitempty"`

	// Replicas is how many replicas are being evicted; ignored for kinds without replicas.
	// +optional
	Replicas *int32 `json:"replicas,omitempty"`

	// Reason is a short CamelCase code for why the eviction happened.
	// +required
	Reason string `json:"reason"`

	// Message is free text about the eviction.
	// +optional
	Message string `json:"message,omitempty"`

	// Producer names the controller that created the task.
	// +required
	Producer string `json:"producer"`

	// GracePeriodSeconds caps how long to wait for the replacement before purging.
	// Mutually exclusive with SuppressDeletion.
	// +optional
	GracePeriodSeconds *int32 `json:"gracePeriodSeconds,omitempty"`

	// SuppressDeletion keeps the old copy until someone clears the task by hand.
	// Mutually exclusive with GracePeriodSeconds.
	// +optional
	SuppressDeletion *bool `json:"suppressDeletion,omitempty"`

	// PreservedLabelState is application state captured from the old cluster, handed to the
	// new cluster as labels.
	// +optional
	PreservedLabelState map[string]string `json:"preservedLabelState,omitempty"`

	// CreationTimestamp is set by the system when the task is created; clients leave it empty.
	// +optional
	CreationTimestamp *metav1.Time `json:"creationTimestamp,omitempty"`

	// ClustersBeforeFailover lists where the application ran before this failover.
	// +optional
	ClustersBeforeFailover []string `json:"clustersBeforeFailover,omitempty"`
}

// BindingSnapshot is a copy of another binding's identity and placement.
type BindingSnapshot struct {
	// Namespace of the binding; empty means a ClusterResourceBinding.
	// +optional
	Namespace string `json:"namespace,omitempty"`

	// Name of the binding.
	// +required
	Name string `json:"name"`

	// Clusters is that binding's scheduling result.
	// +optional
	Clusters []TargetCluster `json:"clusters,omitempty"`
}

// Suspension extends the policy's dispatch suspension with a switch for scheduling.
type Suspension struct {
	policyv1alpha1.Suspension `json:",inline"`

	// Scheduling, when true, keeps the scheduler away from this binding until it is cleared.
	// Meant to be set before the first scheduling pass, e.g. by an admission webhook.
	// +optional
	Scheduling *bool `json:"scheduling,omitempty"`
}

// SchedulePriority is the binding's place in the scheduling queue.
type SchedulePriority struct {
	// Priority; higher values are scheduled first, default 0.
	// +optional
	Priority int32 `json:"priority,omitempty"`
}

// WorkloadAffinityGroups holds group names of the form "<labelKey>=<labelValue>" used to keep
// workloads together (affinity) or apart (anti-affinity).
type WorkloadAffinityGroups struct {
	// AffinityGroup is the group this workload should share clusters with.
	// +optional
	AffinityGroup string `json:"affinityGroup,omitempty"`

	// AntiAffinityGroup is the group this workload should avoid sharing clusters with.
	// +optional
	AntiAffinityGroup string `json:"antiAffinityGroup,omitempty"`
}
