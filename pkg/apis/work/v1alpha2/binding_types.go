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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// Names of the two binding kinds and their resources, as served under work.karmada.io/v1alpha2.
const (
	ResourceKindResourceBinding                   = "ResourceBinding"
	ResourceSingularResourceBinding               = "resourcebinding"
	ResourcePluralResourceBinding                 = "resourcebindings"
	ResourceNamespaceScopedResourceBinding        = true
	ResourceKindClusterResourceBinding            = "ClusterResourceBinding"
	ResourceSingularClusterResourceBinding        = "clusterresourcebinding"
	ResourcePluralClusterResourceBinding          = "clusterresourcebindings"
	ResourceNamespaceScopedClusterResourceBinding = false
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceBinding ties one namespaced resource template to the policy that matched it and
// carries the scheduler's placement decision for it.
type ResourceBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what should be propagated and where.
	// +required
	Spec ResourceBindingSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status is what the scheduler and the member clusters last reported.
	// +optional
	Status ResourceBindingStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ResourceBindingList is a page of ResourceBinding objects.
type ResourceBindingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the bindings on this page.
	// +required
	Items []ResourceBinding `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterResourceBinding is the cluster-scoped twin of ResourceBinding, created for templates
// matched by a ClusterPropagationPolicy.
type ClusterResourceBinding struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec is what should be propagated and where.
	// +required
	Spec ResourceBindingSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status is what the scheduler and the member clusters last reported.
	// +optional
	Status ResourceBindingStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterResourceBindingList is a page of ClusterResourceBinding objects.
type ClusterResourceBindingList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the bindings on this page.
	// +required
	Items []ClusterResourceBinding `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceBindingSpec is shared by ResourceBinding and ClusterResourceBinding.
type ResourceBindingSpec struct {
	// Resource points at the template being propagated.
	// +required
	Resource ObjectReference `json:"resource" protobuf:"bytes,1,opt,name=resource"`

	// PropagateDeps, copied from the policy, asks for the template's dependencies to follow it.
	// +optional
	PropagateDeps bool `json:"propagateDeps,omitempty" protobuf:"varint,2,opt,name=propagateDeps"`

	// ReplicaRequirements describes what one replica needs; used when the template has a single pod template.
	// +optional
	ReplicaRequirements *ReplicaRequirements `json:"replicaRequirements,omitempty" protobuf:"bytes,3,opt,name=replicaRequirements"`

	// Replicas is the template's desired replica count.
	// +optional
	Replicas int32 `json:"replicas,omitempty" protobuf:"varint,4,opt,name=replicas"`

	// Components lists per-pod-template needs for workloads built from several pod templates.
	// Filled only when the MultiplePodTemplatesScheduling feature is on.
	// +optional
	Components []Component `json:"components,omitempty" protobuf:"bytes,5,rep,name=components"`

	// Clusters is the scheduling result: the chosen member clusters and their replica shares.
	// +optional
	Clusters []TargetCluster `json:"clusters,omitempty" protobuf:"bytes,6,rep,name=clusters"`

	// Placement is the placement rule copied from the matching policy.
	// +optional
	Placement *policyv1alpha1.Placement `json:"placement,omitempty" protobuf:"bytes,7,opt,name=placement"`

	// GracefulEvictionTasks tracks clusters the resource is leaving; each entry keeps the old copy
	// alive until a replacement is healthy or its grace period ends.
	// +optional
	GracefulEvictionTasks []GracefulEvictionTask `json:"gracefulEvictionTasks,omitempty" protobuf:"bytes,8,rep,name=gracefulEvictionTasks"`

	// RequiredBy lists the bindings that pulled this resource in as a dependency.
	// +optional
	RequiredBy []BindingSnapshot `json:"requiredBy,omitempty" protobuf:"bytes,9,rep,name=requiredBy"`

	// SchedulerName names the scheduler responsible for this binding, copied from the policy.
	// +optional
	SchedulerName string `json:"schedulerName,omitempty" protobuf:"bytes,10,opt,name=schedulerName"`

	// Failover holds the failover behaviour copied from the policy.
	// +optional
	Failover *policyv1alpha1.FailoverBehavior `json:"failover,omitempty" protobuf:"bytes,11,opt,name=failover"`

	// ConflictResolution says what to do when the resource already exists in a member cluster
	// (Abort or Overwrite; an empty value means Abort).
	// +optional
	ConflictResolution policyv1alpha1.ConflictResolution `json:"conflictResolution,omitempty" protobuf:"bytes,12,opt,name=conflictResolution,casttype=github.com/mco-org/mco/pkg/apis/policy/v1alpha1.ConflictResolution"`

	// RescheduleTriggeredAt requests a fresh scheduling pass that ignores earlier results; it only
	// takes effect while it is later than status.lastScheduledTime.
	// +optional
	RescheduleTriggeredAt *metav1.Time `json:"rescheduleTriggeredAt,omitempty" protobuf:"bytes,13,opt,name=rescheduleTriggeredAt"`

	// Suspension pauses scheduling and/or dispatching of this binding; nil pauses nothing.
	// +optional
	Suspension *Suspension `json:"suspension,omitempty" protobuf:"bytes,14,opt,name=suspension"`

	// PreserveResourcesOnDeletion keeps the propagated copies in member clusters when the binding goes away.
	// +optional
	PreserveResourcesOnDeletion *bool `json:"preserveResourcesOnDeletion,omitempty" protobuf:"varint,15,opt,name=preserveResourcesOnDeletion"`

	// SchedulePriority orders this binding in the scheduler's queue.
	// +optional
	SchedulePriority *SchedulePriority `json:"schedulePriority,omitempty" protobuf:"bytes,16,opt,name=schedulePriority"`

	// WorkloadAffinityGroups holds the affinity group names resolved from the policy's workload affinity.
	// Only ResourceBinding uses it; it stays empty on ClusterResourceBinding.
	// +optional
	WorkloadAffinityGroups *WorkloadAffinityGroups `json:"workloadAffinityGroups,omitempty" protobuf:"bytes,17,opt,name=workloadAffinityGroups"`
}

// ResourceBindingStatus is the observed state of a binding.
type ResourceBindingStatus struct {
	// SchedulerObservedGeneration is the metadata.generation the scheduler last acted on.
	// +optional
	SchedulerObservedGeneration int64 `json:"schedulerObservedGeneration,omitempty" protobuf:"varint,1,opt,name=schedulerObservedGeneration"`

	// SchedulerObservedAffinityName names the cluster affinity term the current result came from.
	// +optional
	SchedulerObservedAffinityName string `json:"schedulerObservingAffinityName,omitempty" protobuf:"bytes,2,opt,name=schedulerObservingAffinityName"`

	// LastScheduledTime is when the scheduler last finished a successful pass.
	// +optional
	LastScheduledTime *metav1.Time `json:"lastScheduledTime,omitempty" protobuf:"bytes,3,opt,name=lastScheduledTime"`

	// Conditions include Scheduled and FullyApplied.
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty" protobuf:"bytes,4,rep,name=conditions"`

	// AggregatedStatus has one entry per member cluster the resource was sent to.
	// +optional
	AggregatedStatus []AggregatedStatusItem `json:"aggregatedStatus,omitempty" protobuf:"bytes,5,rep,name=aggregatedStatus"`
}

// AggregatedStatusItem is the resource's state in one member cluster.
type AggregatedStatusItem struct {
	// ClusterName is the member cluster this entry describes.
	// +required
	ClusterName string `json:"clusterName" protobuf:"bytes,1,opt,name=clusterName"`

	// Status is the status the member cluster reported, kept as raw JSON.
	// +optional
	Status *runtime.RawExtension `json:"status,omitempty" protobuf:"bytes,2,opt,name=status"`

	// Applied tells whether the resource was written to the cluster successfully.
	// +optional
	Applied bool `json:"applied,omitempty" protobuf:"varint,3,opt,name=applied"`

	// AppliedMessage explains the applied state, usually the error when applying failed.
	// +optional
	AppliedMessage string `json:"appliedMessage,omitempty" protobuf:"bytes,4,opt,name=appliedMessage"`

	// Health is the resource's health in this cluster: Healthy, Unhealthy or Unknown.
	// +optional
	Health ResourceHealth `json:"health,omitempty" protobuf:"bytes,5,opt,name=health,casttype=ResourceHealth"`
}

// ResourceHealth is the health verdict for a propagated resource in one member cluster.
type ResourceHealth string

// Values of ResourceHealth.
const (
	// ResourceHealthy means the resource meets its health rule in the member cluster.
	ResourceHealthy ResourceHealth = "Healthy"
	// ResourceUnhealthy means the resource fails its health rule in the member cluster.
	ResourceUnhealthy ResourceHealth = "Unhealthy"
	// ResourceUnknown means no health verdict could be reached.
	ResourceUnknown ResourceHealth = "Unknown"
)

// Condition types set on bindings.
const (
	// Scheduled reports whether the scheduler has placed the binding.
	Scheduled string = "Scheduled"
	// FullyApplied reports whether the resource has been applied to every chosen cluster.
	FullyApplied string = "FullyApplied"
)

// Reasons used on the Scheduled condition.
const (
	// BindingReasonSuccess: scheduling succeeded.
	BindingReasonSuccess = "Success"
	// BindingReasonSchedulerError: scheduling hit an internal error, such as an API call failing.
	BindingReasonSchedulerError = "SchedulerError"
	// BindingReasonNoClusterFit: no cluster passed the filters.
	BindingReasonNoClusterFit = "NoClusterFit"
	// BindingReasonUnschedulable: clusters fit but cannot take the binding now, e.g. too little capacity.
	BindingReasonUnschedulable = "Unschedulable"
	// BindingReasonQuotaExceeded: the binding would exceed a FederatedResourceQuota in its namespace.
	BindingReasonQuotaExceeded = "QuotaExceeded"
)
