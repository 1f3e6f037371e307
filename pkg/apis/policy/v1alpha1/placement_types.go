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

// Placement says which member clusters may receive the resources and how
// replicas are shared between them.
type Placement struct {
	// ClusterAffinity limits the candidate clusters. It cannot be combined with
	// ClusterAffinities; with neither set, every cluster is a candidate.
	// +optional
	ClusterAffinity *ClusterAffinity `json:"clusterAffinity,omitempty" protobuf:"bytes,1,opt,name=clusterAffinity"`

	// ClusterAffinities is an ordered list of cluster groups. The scheduler
	// uses the first group that can hold the workload and tries the next one
	// only when it cannot. Cannot be combined with ClusterAffinity.
	// +optional
	ClusterAffinities []ClusterAffinityTerm `json:"clusterAffinities,omitempty" protobuf:"bytes,2,rep,name=clusterAffinities"`

	// ClusterTolerations lets the resources go to clusters with matching taints.
	// +optional
	ClusterTolerations []corev1.Toleration `json:"clusterTolerations,omitempty" protobuf:"bytes,3,rep,name=clusterTolerations"`

	// SpreadConstraints spread the resources over groups of clusters.
	// +optional
	SpreadConstraints []SpreadConstraint `json:"spreadConstraints,omitempty" protobuf:"bytes,4,rep,name=spreadConstraints"`

	// ReplicaScheduling says how the replicas of workloads such as Deployments
	// are handed out to the chosen clusters.
	// +optional
	ReplicaScheduling *ReplicaSchedulingStrategy `json:"replicaScheduling,omitempty" protobuf:"bytes,5,opt,name=replicaScheduling"`

	// WorkloadAffinity keeps this workload together with, or apart from,
	// other workloads of the same group.
	// +optional
	WorkloadAffinity *WorkloadAffinity `json:"workloadAffinity,omitempty" protobuf:"bytes,6,opt,name=workloadAffinity"`
}

// ClusterAffinity selects clusters by labels, fields or names. All the filters
// that are set must match.
type ClusterAffinity struct {
	// LabelSelector keeps only clusters whose labels match.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,1,opt,name=labelSelector"`

	// FieldSelector keeps only clusters whose provider, region or zone match
	// (operators In and NotIn).
	// +optional
	FieldSelector *FieldSelector `json:"fieldSelector,omitempty" protobuf:"bytes,2,opt,name=fieldSelector"`

	// ClusterNames keeps only the named clusters.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty" protobuf:"bytes,3,rep,name=clusterNames"`

	// ExcludeClusters removes the named clusters.
	// +optional
	ExcludeClusters []string `json:"exclude,omitempty" protobuf:"bytes,4,rep,name=exclude"`
}

// FieldSelector matches clusters by their fields rather than their labels.
type FieldSelector struct {
	// MatchExpressions must all match; keys are provider, region or zone.
	MatchExpressions []corev1.NodeSelectorRequirement `json:"matchExpressions,omitempty" protobuf:"bytes,1,rep,name=matchExpressions"`
}

// ClusterAffinityTerm is one named cluster group of Placement.ClusterAffinities.
type ClusterAffinityTerm struct {
	// AffinityName names the group (1 to 32 characters).
	// +required
	AffinityName string `json:"affinityName" protobuf:"bytes,1,opt,name=affinityName"`

	// ClusterAffinity selects the clusters of the group; its fields sit
	// directly in the term.
	ClusterAffinity `json:",inline" protobuf:"bytes,2,opt,name=clusterAffinity"`

	// OverflowAffinities are extra groups filled, in order, when this group
	// runs out of room; on scale-down they are emptied first. They need the
	// inline ClusterAffinity to be set.
	// +optional
	OverflowAffinities []OverflowClusterAffinity `json:"overflowAffinities,omitempty" protobuf:"bytes,3,rep,name=overflowAffinities"`
}

// OverflowClusterAffinity is one named overflow group of a ClusterAffinityTerm.
type OverflowClusterAffinity struct {
	// AffinityName names the group (1 to 32 characters).
	// +required
	AffinityName string `json:"affinityName" protobuf:"bytes,1,opt,name=affinityName"`

	// ClusterAffinity selects the clusters of the group; its fields sit
	// directly in the entry.
	ClusterAffinity `json:",inline" protobuf:"bytes,2,opt,name=clusterAffinity"`
}

// SpreadConstraint spreads the resources over groups of clusters that share a
// field value or a label value.
type SpreadConstraint struct {
	// SpreadByField groups clusters by cluster, region, zone or provider.
	// Cannot be combined with SpreadByLabel; with both empty, cluster is used.
	// +optional
	SpreadByField SpreadFieldValue `json:"spreadByField,omitempty" protobuf:"bytes,1,opt,name=spreadByField,casttype=SpreadFieldValue"`

	// SpreadByLabel groups clusters by the value of this label key.
	// Cannot be combined with SpreadByField.
	// +optional
	SpreadByLabel string `json:"spreadByLabel,omitempty" protobuf:"bytes,2,opt,name=spreadByLabel"`

	// MaxGroups is the most groups to pick.
	// +optional
	MaxGroups int `json:"maxGroups,omitempty" protobuf:"varint,3,opt,name=maxGroups,casttype=int"`

	// MinGroups is the fewest groups to pick; unset means 1.
	// +optional
	MinGroups int `json:"minGroups,omitempty" protobuf:"varint,4,opt,name=minGroups,casttype=int"`
}

// ReplicaSchedulingStrategy says how replicas are handed out to clusters.
type ReplicaSchedulingStrategy struct {
	// ReplicaSchedulingType is Duplicated (every cluster gets all replicas)
	// or Divided (the replicas are split; the default).
	// +optional
	ReplicaSchedulingType ReplicaSchedulingType `json:"replicaSchedulingType,omitempty" protobuf:"bytes,1,opt,name=replicaSchedulingType,casttype=ReplicaSchedulingType"`

	// ReplicaDivisionPreference says how a Divided split is made: Aggregated
	// (as few clusters as fit) or Weighted (by WeightPreference).
	// +optional
	ReplicaDivisionPreference ReplicaDivisionPreference `json:"replicaDivisionPreference,omitempty" protobuf:"bytes,2,opt,name=replicaDivisionPreference,casttype=ReplicaDivisionPreference"`

	// WeightPreference gives the weights for a Weighted split; unset weighs
	// every cluster the same.
	// +optional
	WeightPreference *ClusterPreferences `json:"weightPreference,omitempty" protobuf:"bytes,3,opt,name=weightPreference"`
}

// ClusterPreferences gives cluster weights, either fixed or computed.
type ClusterPreferences struct {
	// StaticWeightList gives fixed weights to sets of clusters.
	// +optional
	StaticWeightList []StaticClusterWeight `json:"staticWeightList,omitempty" protobuf:"bytes,1,rep,name=staticWeightList"`

	// DynamicWeight computes the weights instead (AvailableReplicas); when set,
	// StaticWeightList is ignored.
	// +optional
	DynamicWeight DynamicWeightFactor `json:"dynamicWeight,omitempty" protobuf:"bytes,2,opt,name=dynamicWeight,casttype=DynamicWeightFactor"`
}

// StaticClusterWeight gives one weight to the clusters a filter selects.
type StaticClusterWeight struct {
	// TargetCluster selects the clusters that get this weight.
	// +required
	TargetCluster ClusterAffinity `json:"targetCluster" protobuf:"bytes,1,opt,name=targetCluster"`

	// Weight is the share of those clusters; at least 1.
	// +required
	Weight int64 `json:"weight" protobuf:"varint,2,opt,name=weight"`
}

// WorkloadAffinity holds hard rules that place a workload with, or away from,
// workloads of the same group.
type WorkloadAffinity struct {
	// Affinity puts the workload only on clusters already running its group.
	// The first workload of a group is never blocked.
	// +optional
	Affinity *WorkloadAffinityTerm `json:"affinity,omitempty" protobuf:"bytes,1,opt,name=affinity"`

	// AntiAffinity keeps the workload off clusters already running its group.
	// +optional
	AntiAffinity *WorkloadAntiAffinityTerm `json:"antiAffinity,omitempty" protobuf:"bytes,2,opt,name=antiAffinity"`
}

// WorkloadAffinityTerm defines the group a workload should stay with.
type WorkloadAffinityTerm struct {
	// GroupByLabelKey is a label key on the resource template; workloads of
	// one namespace with the same value for it form one group.
	// +required
	GroupByLabelKey string `json:"groupByLabelKey" protobuf:"bytes,1,opt,name=groupByLabelKey"`
}

// WorkloadAntiAffinityTerm defines the group a workload should stay apart from.
type WorkloadAntiAffinityTerm struct {
	// GroupByLabelKey is a label key on the resource template; workloads of
	// one namespace with the same value for it form one group.
	// +required
	GroupByLabelKey string `json:"groupByLabelKey" protobuf:"bytes,1,opt,name=groupByLabelKey"`
}
