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

import metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WorkloadRebalancer asks for a fresh scheduling decision for each workload
// it lists, as if its binding had just been created: replicas that stayed
// where a failover moved them are spread again. It is a one-off job; its
// status records the outcome per workload.
type WorkloadRebalancer struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec lists the workloads to rebalance.
	// +required
	Spec WorkloadRebalancerSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status is the outcome, per workload.
	// +optional
	Status WorkloadRebalancerStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// WorkloadRebalancerSpec lists the workloads to rebalance.
type WorkloadRebalancerSpec struct {
	// Workloads are the resource templates to reschedule; at least one.
	// +required
	Workloads []ObjectReference `json:"workloads" protobuf:"bytes,1,rep,name=workloads"`

	// TTLSecondsAfterFinished, when set, deletes the rebalancer that many
	// seconds after every workload has a result (0: at once). Unset, it
	// stays until deleted.
	// +optional
	TTLSecondsAfterFinished *int32 `json:"ttlSecondsAfterFinished,omitempty" protobuf:"varint,2,opt,name=ttlSecondsAfterFinished"`
}

// ObjectReference names one resource template.
type ObjectReference struct {
	// APIVersion of the template, e.g. apps/v1.
	// +required
	APIVersion string `json:"apiVersion" protobuf:"bytes,1,opt,name=apiVersion"`

	// Kind of the template, e.g. Deployment.
	// +required
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`

	// Name of the template.
	// +required
	Name string `json:"name" protobuf:"bytes,3,opt,name=name"`

	// Namespace of the template; empty for a cluster-scoped one.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,4,opt,name=namespace"`
}

// WorkloadRebalancerStatus is the outcome of a rebalancer.
type WorkloadRebalancerStatus struct {
	// ObservedWorkloads holds the result of each workload.
	// +optional
	ObservedWorkloads []ObservedWorkload `json:"observedWorkloads,omitempty" protobuf:"bytes,1,rep,name=observedWorkloads"`

	// ObservedGeneration is the generation the results are for.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,2,opt,name=observedGeneration"`

	// FinishTime is when every workload had a result.
	// +optional
	FinishTime *metav1.Time `json:"finishTime,omitempty" protobuf:"bytes,3,opt,name=finishTime"`
}

// ObservedWorkload is the result for one workload.
type ObservedWorkload struct {
	// Workload is the template.
	// +required
	Workload ObjectReference `json:"workload" protobuf:"bytes,1,opt,name=workload"`

	// Result is Successful (a fresh decision was requested) or Failed.
	// +optional
	Result RebalanceResult `json:"result,omitempty" protobuf:"bytes,2,opt,name=result,casttype=RebalanceResult"`

	// Reason says why it failed.
	// +optional
	Reason RebalanceFailedReason `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason,casttype=RebalanceFailedReason"`
}

// RebalanceResult is the outcome for one workload.
type RebalanceResult string

const (
	// RebalanceFailed: no fresh decision could be requested.
	RebalanceFailed RebalanceResult = "Failed"
	// RebalanceSuccessful: a fresh decision was requested of the scheduler.
	RebalanceSuccessful RebalanceResult = "Successful"
)

// RebalanceFailedReason is a machine-readable reason for a failure.
type RebalanceFailedReason string

const (
	// RebalanceObjectNotFound: the workload has no binding (it does not
	// exist, or no policy propagates it).
	RebalanceObjectNotFound RebalanceFailedReason = "ReferencedBindingNotFound"
)

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// WorkloadRebalancerList is a list of WorkloadRebalancers.
type WorkloadRebalancerList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Items are the rebalancers.
	Items []WorkloadRebalancer `json:"items" protobuf:"bytes,2,rep,name=items"`
}
