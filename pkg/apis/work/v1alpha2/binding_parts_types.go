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
	APIVersion string `json:"apiVersion" protobuf:"bytes,1,opt,name=apiVersion"`

	// Kind is the template's kind.
	// +required
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`

	// Namespace of the template; empty for cluster-scoped kinds.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`

	// Name of the template.
	// +required
	Name string `json:"name" protobuf:"bytes,4,opt,name=name"`

	// UID of the template.
	// +optional
	UID types.UID `json:"uid,omitempty" protobuf:"bytes,5,opt,name=uid,casttype=k8s.io/apimachinery/pkg/types.UID"`

	// ResourceVersion of the template when the binding last looked at it.
	// +optional
	ResourceVersion string `json:"resourceVersion,omitempty" protobuf:"bytes,6,opt,name=resourceVersion"`
}

// ReplicaRequirements describes what a single replica needs from a member cluster.
type ReplicaRequirements struct {
	// NodeClaim carries the node constraints each replica is bound by.
	// +optional
	NodeClaim *NodeClaim `json:"nodeClaim,omitempty" protobuf:"bytes,1,opt,name=nodeClaim"`

	// ResourceRequest is the compute each replica asks for.
	// +optional
	ResourceRequest corev1.ResourceList `json:"resourceRequest,omitempty" protobuf:"bytes,2,rep,name=resourceRequest,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName"`

	// Namespace the replicas run in.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`

	// PriorityClassName of the replicas' pods.
	// +optional
	PriorityClassName string `json:"priorityClassName,omitempty" protobuf:"bytes,4,opt,name=priorityClassName"`
}

// Component is one pod template of a workload that has several of them.
type Component struct {
	// Name identifies the component; unique within the workload.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// Replicas is how many pods this component wants.
	// +required
	Replicas int32 `json:"replicas" protobuf:"varint,2,opt,name=replicas"`

	// ReplicaRequirements describes what one pod of this component needs.
	// +optional
	ReplicaRequirements *ComponentReplicaRequirements `json:"replicaRequirements,omitempty" protobuf:"bytes,3,opt,name=replicaRequirements"`
}

// ComponentReplicaRequirements is the per-pod need of one component.
type ComponentReplicaRequirements struct {
	// NodeClaim carries the node constraints each pod is bound by.
	// +optional
	NodeClaim *NodeClaim `json:"nodeClaim,omitempty" protobuf:"bytes,1,opt,name=nodeClaim"`

	// ResourceRequest is the compute each pod asks for.
	// +optional
	ResourceRequest corev1.ResourceList `json:"resourceRequest,omitempty" protobuf:"bytes,2,rep,name=resourceRequest,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName"`

	// PriorityClassName of the component's pods.
	// +optional
	PriorityClassName string `json:"priorityClassName,omitempty" protobuf:"bytes,3,opt,name=priorityClassName"`
}

// NodeClaim gathers the hard node constraints taken from a pod template.
type NodeClaim struct {
	// HardNodeAffinity is the template's required node affinity.
	// +optional
	HardNodeAffinity *corev1.NodeSelector `json:"hardNodeAffinity,omitempty" protobuf:"bytes,1,opt,name=hardNodeAffinity"`

	// NodeSelector is the template's node label selector.
	// +optional
	NodeSelector map[string]string `json:"nodeSelector,omitempty" protobuf:"bytes,2,rep,name=nodeSelector"`

	// Tolerations are the template's pod tolerations.
	// +optional
	Tolerations []corev1.Toleration `json:"tolerations,omitempty" protobuf:"bytes,3,rep,name=tolerations"`
}

// TargetCluster is one member cluster picked by the scheduler.
type TargetCluster struct {
	// Name of the member cluster.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// Replicas assigned to this cluster.
	// +optional
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,2,opt,name=replicas"`

	// Components splits the assignment per component, for multi-template workloads only.
	// +optional
	Components []TargetComponent `json:"components,omitempty" protobuf:"bytes,3,rep,name=components"`
}

// TargetComponent is how many replicas of one component go to a cluster.
type TargetComponent struct {
	// Name matches an entry of spec.components.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// Replicas of that component placed in the cluster.
	// +required
	Replicas int32 `json:"replicas" protobuf:"varint,2,opt,name=replicas"`
}

// GracefulEvictionTask records a cluster the resource is being moved away from.
type GracefulEvictionTask struct {
	// FromCluster is the cluster being evicted from.
	// +required
	FromCluster string `json:"fromCluster" protobuf:"bytes,1,opt,name=fromCluster"`

	// PurgeMode says how the old copy is removed from FromCluster.
	// +optional
	PurgeMode policyv1alpha1.PurgeMode `json:"purgeMode,omitempty" protobuf:"bytes,2,opt,name=purgeMode,casttype=github.com/mco-org/mco/pkg/apis/policy/v1alpha1.PurgeMode"`

	// Replicas is how many replicas are being evicted; ignored for kinds without replicas.
	// +optional
	Replicas *int32 `json:"replicas,omitempty" protobuf:"varint,3,opt,name=replicas"`

	// Reason is a short CamelCase code for why the eviction happened.
	// +required
	Reason string `json:"reason" protobuf:"bytes,4,opt,name=reason"`

	// Message is free text about the eviction.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`

	// Producer names the controller that created the task.
	// +required
	Producer string `json:"producer" protobuf:"bytes,6,opt,name=producer"`

	// GracePeriodSeconds caps how long to wait for the replacement before purging.
	// Mutually exclusive with SuppressDeletion.
	// +optional
	GracePeriodSeconds *int32 `json:"gracePeriodSeconds,omitempty" protobuf:"varint,7,opt,name=gracePeriodSeconds"`

	// SuppressDeletion keeps the old copy until someone clears the task by hand.
	// Mutually exclusive with GracePeriodSeconds.
	// +optional
	SuppressDeletion *bool `json:"suppressDeletion,omitempty" protobuf:"varint,8,opt,name=suppressDeletion"`

	// PreservedLabelState is application state captured from the old cluster, handed to the
	// new cluster as labels.
	// +optional
	PreservedLabelState map[string]string `json:"preservedLabelState,omitempty" protobuf:"bytes,9,rep,name=preservedLabelState"`

	// CreationTimestamp is set by the system when the task is created; clients leave it empty.
	// +optional
	CreationTimestamp *metav1.Time `json:"creationTimestamp,omitempty" protobuf:"bytes,10,opt,name=creationTimestamp"`

	// ClustersBeforeFailover lists where the application ran before this failover.
	// +optional
	ClustersBeforeFailover []string `json:"clustersBeforeFailover,omitempty" protobuf:"bytes,11,rep,name=clustersBeforeFailover"`
}

// BindingSnapshot is a copy of another binding's identity and placement.
type BindingSnapshot struct {
	// Namespace of the binding; empty means a ClusterResourceBinding.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,1,opt,name=namespace"`

	// Name of the binding.
	// +required
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`

	// Clusters is that binding's scheduling result.
	// +optional
	Clusters []TargetCluster `json:"clusters,omitempty" protobuf:"bytes,3,rep,name=clusters"`
}

// Suspension extends the policy's dispatch suspension with a switch for scheduling.
type Suspension struct {
	policyv1alpha1.Suspension `json:",inline" protobuf:"bytes,1,opt,name=suspension"`

	// Scheduling, when true, keeps the scheduler away from this binding until it is cleared.
	// Meant to be set before the first scheduling pass, e.g. by an admission webhook.
	// +optional
	Scheduling *bool `json:"scheduling,omitempty" protobuf:"varint,2,opt,name=scheduling"`
}

// SchedulePriority is the binding's place in the scheduling queue.
type SchedulePriority struct {
	// Priority; higher values are scheduled first, default 0.
	// +optional
	Priority int32 `json:"priority,omitempty" protobuf:"varint,1,opt,name=priority"`
}

// WorkloadAffinityGroups holds group names of the form "<labelKey>=<labelValue>" used to keep
// workloads together (affinity) or apart (anti-affinity).
type WorkloadAffinityGroups struct {
	// AffinityGroup is the group this workload should share clusters with.
	// +optional
	AffinityGroup string `json:"affinityGroup,omitempty" protobuf:"bytes,1,opt,name=affinityGroup"`

	// AntiAffinityGroup is the group this workload should avoid sharing clusters with.
	// +optional
	AntiAffinityGroup string `json:"antiAffinityGroup,omitempty" protobuf:"bytes,2,opt,name=antiAffinityGroup"`
}
