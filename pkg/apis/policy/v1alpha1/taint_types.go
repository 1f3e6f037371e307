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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +genclient:nonNamespaced
// +genclient:noStatus
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterTaintPolicy puts taints on Clusters, and takes them off again, as
// the Clusters' status conditions change. Deleting a policy leaves the taints
// it added where they are.
type ClusterTaintPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec says which clusters, when, and which taints.
	// +required
	Spec ClusterTaintPolicySpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`
}

// ClusterTaintPolicySpec is the body of a ClusterTaintPolicy.
type ClusterTaintPolicySpec struct {
	// TargetClusters picks the Clusters the policy looks after; nil means
	// every Cluster. A Cluster that stops matching keeps the taints it has.
	// +optional
	TargetClusters *ClusterAffinity `json:"targetClusters,omitempty" protobuf:"bytes,1,opt,name=targetClusters"`

	// AddOnConditions must all hold for the taints to be added. An empty
	// list never adds them.
	// +optional
	AddOnConditions []MatchCondition `json:"addOnConditions,omitempty" protobuf:"bytes,2,rep,name=addOnConditions"`

	// RemoveOnConditions must all hold for the taints to be taken off. An
	// empty list never takes them off.
	// +optional
	RemoveOnConditions []MatchCondition `json:"removeOnConditions,omitempty" protobuf:"bytes,3,rep,name=removeOnConditions"`

	// Taints are added to or removed from the targeted Clusters; at least
	// one. Edits take effect the next time the conditions are evaluated.
	// +required
	Taints []Taint `json:"taints" protobuf:"bytes,4,rep,name=taints"`
}

// MatchCondition tests one status condition of a Cluster.
type MatchCondition struct {
	// ConditionType is the type of the Cluster condition, e.g. Ready.
	// +required
	ConditionType string `json:"conditionType" protobuf:"bytes,1,opt,name=conditionType"`

	// Operator is In or NotIn.
	// +required
	Operator MatchConditionOperator `json:"operator" protobuf:"bytes,2,opt,name=operator,casttype=MatchConditionOperator"`

	// StatusValues are the condition statuses (True, False, Unknown) the
	// operator compares with.
	// +required
	StatusValues []metav1.ConditionStatus `json:"statusValues" protobuf:"bytes,3,rep,name=statusValues,casttype=k8s.io/apimachinery/pkg/apis/meta/v1.ConditionStatus"`
}

// MatchConditionOperator compares a condition's status with a list.
type MatchConditionOperator string

const (
	// MatchConditionOpIn holds when the condition's status is listed.
	MatchConditionOpIn MatchConditionOperator = "In"
	// MatchConditionOpNotIn holds when the condition's status is not listed.
	MatchConditionOpNotIn MatchConditionOperator = "NotIn"
)

// Taint is a taint a ClusterTaintPolicy manages.
type Taint struct {
	// Key of the taint.
	// +required
	Key string `json:"key" protobuf:"bytes,1,opt,name=key"`

	// Effect of the taint: NoSchedule or NoExecute.
	// +required
	Effect corev1.TaintEffect `json:"effect" protobuf:"bytes,2,opt,name=effect,casttype=k8s.io/api/core/v1.TaintEffect"`

	// Value of the taint; may be empty.
	// +optional
	Value string `json:"value,omitempty" protobuf:"bytes,3,opt,name=value"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterTaintPolicyList is a page of ClusterTaintPolicy objects.
type ClusterTaintPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ClusterTaintPolicy `json:"items" protobuf:"bytes,2,rep,name=items"`
}
