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

// Remedy names actions to record on the Clusters it selects whenever one
// of its decision matches holds for a cluster's conditions. It has no
// status: its outcome is each Cluster's status.remedyActions.
type Remedy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec says which clusters, when, and what.
	// +required
	Spec RemedySpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// RemedySpec says which clusters a Remedy watches, on which of their
// conditions it acts, and the actions it records.
type RemedySpec struct {
	// ClusterAffinity selects the clusters; unset selects every cluster.
	// +optional
	ClusterAffinity *ClusterAffinity `json:"clusterAffinity,omitempty" protobuf:"bytes,1,opt,name=clusterAffinity"`

	// DecisionMatches trigger the actions when any one of them holds;
	// unset, the actions hold at once.
	// +optional
	DecisionMatches []DecisionMatch `json:"decisionMatches,omitempty" protobuf:"bytes,2,rep,name=decisionMatches"`

	// Actions are recorded on the clusters where a match holds.
	// +optional
	Actions []RemedyAction `json:"actions,omitempty" protobuf:"bytes,3,rep,name=actions,casttype=RemedyAction"`
}

// DecisionMatch is one requirement that triggers a Remedy.
type DecisionMatch struct {
	// ClusterConditionMatch is a requirement on a Cluster condition.
	// +optional
	ClusterConditionMatch *ClusterConditionRequirement `json:"clusterConditionMatch,omitempty" protobuf:"bytes,1,opt,name=clusterConditionMatch"`
}

// ClusterConditionRequirement compares the status of one condition of a
// Cluster with a value.
type ClusterConditionRequirement struct {
	// ConditionType is the Cluster condition's type.
	// +required
	ConditionType ConditionType `json:"conditionType" protobuf:"bytes,1,opt,name=conditionType,casttype=ConditionType"`

	// Operator is Equal or NotEqual.
	// +required
	Operator ClusterConditionOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=ClusterConditionOperator"`

	// ConditionStatus is the status compared with the condition's.
	// +required
	ConditionStatus string `json:"conditionStatus" protobuf:"bytes,3,opt,name=conditionStatus"`
}

// ConditionType is a type of Cluster condition a Remedy may watch.
type ConditionType string

// ServiceDomainNameResolutionReady says whether a member resolves the
// domain names of Services (set by a checker outside mco).
const ServiceDomainNameResolutionReady ConditionType = "ServiceDomainNameResolutionReady"

// ClusterConditionOperator compares a condition's status with a value.
type ClusterConditionOperator string

// The operators of a ClusterConditionRequirement.
const (
	ClusterConditionEqual    ClusterConditionOperator = "Equal"
	ClusterConditionNotEqual ClusterConditionOperator = "NotEqual"
)

// ClusterAffinity selects clusters by name.
type ClusterAffinity struct {
	// ClusterNames are the clusters selected.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty" protobuf:"bytes,1,rep,name=clusterNames"`
}

// RemedyAction is an action recorded on a Cluster.
type RemedyAction string

// TrafficControl asks that traffic to the cluster be controlled.
const TrafficControl RemedyAction = "TrafficControl"

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// RemedyList is a list of Remedies.
type RemedyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Remedy `json:"items" protobuf:"bytes,2,rep,name=items"`
}
