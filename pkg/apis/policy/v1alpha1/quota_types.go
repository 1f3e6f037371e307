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
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// FederatedResourceQuota limits what one namespace may use across every
// member cluster: an overall limit, enforced when workloads are placed,
// and per-cluster limits, made ResourceQuotas in the members.
type FederatedResourceQuota struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec holds the limits.
	// +required
	Spec FederatedResourceQuotaSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status holds the limits in force and what is used.
	// +optional
	Status FederatedResourceQuotaStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// FederatedResourceQuotaSpec holds the limits of a namespace.
type FederatedResourceQuotaSpec struct {
	// Overall is the limit of each named resource over all clusters.
	// +required
	Overall ResourceQuantities `json:"overall" protobuf:"bytes,1,opt,name=overall"`

	// StaticAssignments are per-cluster limits; each becomes a
	// ResourceQuota of the same name in that cluster's namespace.
	// Clusters not listed get no ResourceQuota.
	// +optional
	StaticAssignments []StaticClusterAssignment `json:"staticAssignments,omitempty" protobuf:"bytes,2,rep,name=staticAssignments"`
}

// StaticClusterAssignment is the limit of one cluster.
type StaticClusterAssignment struct {
	// ClusterName is the cluster the limit applies to.
	// +required
	ClusterName string `json:"clusterName" protobuf:"bytes,1,opt,name=clusterName"`

	// Hard is the limit of each named resource in that cluster.
	// +required
	Hard ResourceQuantities `json:"hard" protobuf:"bytes,2,opt,name=hard"`
}

// FederatedResourceQuotaStatus is what is enforced and used.
type FederatedResourceQuotaStatus struct {
	// Overall is the overall limit in force.
	// +optional
	Overall corev1.ResourceList `json:"overall,omitempty" protobuf:"bytes,1,rep,name=overall,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName"`

	// OverallUsed is what the namespace's placed workloads use, as the
	// scheduler placed them: replicas times each replica's requests.
	// +optional
	OverallUsed corev1.ResourceList `json:"overallUsed,omitempty" protobuf:"bytes,2,rep,name=overallUsed,casttype=k8s.io/api/core/v1.ResourceList,castkey=k8s.io/api/core/v1.ResourceName"`

	// AggregatedStatus is each cluster's ResourceQuota status as the
	// member reports it.
	// +optional
	AggregatedStatus []ClusterQuotaStatus `json:"aggregatedStatus,omitempty" protobuf:"bytes,3,rep,name=aggregatedStatus"`
}

// ClusterQuotaStatus is the limit and use of one cluster.
type ClusterQuotaStatus struct {
	// ClusterName is the cluster.
	// +required
	ClusterName string `json:"clusterName" protobuf:"bytes,1,opt,name=clusterName"`

	// ResourceQuotaStatus is the member ResourceQuota's hard and used.
	corev1.ResourceQuotaStatus `json:",inline" protobuf:"bytes,2,opt,name=resourceQuotaStatus"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// FederatedResourceQuotaList is a list of FederatedResourceQuotas.
type FederatedResourceQuotaList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []FederatedResourceQuota `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// ResourceQuantities is a limit per named resource, as corev1.ResourceList;
// an empty map and a missing one stay apart, in protobuf as in JSON: a
// limit may be empty, not missing.
// +protobuf.nullable=true
// +protobuf.options.(gogoproto.goproto_stringer)=false
type ResourceQuantities map[corev1.ResourceName]resource.Quantity
