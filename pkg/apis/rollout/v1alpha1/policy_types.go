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
	"k8s.io/apimachinery/pkg/util/intstr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// RolloutPolicy stages the changes of the templates it selects in its
// namespace: a new revision reaches one wave of clusters at a time, each
// wave gated on the health of the one before.
type RolloutPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec selects templates and describes their waves.
	// +required
	Spec RolloutPolicySpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status counts the rollouts the policy governs.
	// +optional
	Status RolloutPolicyStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// RolloutPolicyList is a list of RolloutPolicies.
type RolloutPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []RolloutPolicy `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterRolloutPolicy is a RolloutPolicy for templates in any namespace
// and cluster-scoped ones. A RolloutPolicy selecting the same template
// wins over it.
type ClusterRolloutPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec selects templates and describes their waves.
	// +required
	Spec RolloutPolicySpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status counts the rollouts the policy governs.
	// +optional
	Status RolloutPolicyStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterRolloutPolicyList is a list of ClusterRolloutPolicies.
type ClusterRolloutPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []ClusterRolloutPolicy `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// RolloutPolicySpec is the body of a RolloutPolicy or ClusterRolloutPolicy.
type RolloutPolicySpec struct {
	// ResourceSelectors pick the templates whose changes are staged, as a
	// PropagationPolicy's do. When several policies select a template, the
	// most specific wins (a RolloutPolicy over a ClusterRolloutPolicy,
	// then a name over a label selector over a kind, then the smaller
	// name).
	// +required
	ResourceSelectors []policyv1alpha1.ResourceSelector `json:"resourceSelectors" protobuf:"bytes,1,rep,name=resourceSelectors"`

	// Waves are the stages, in order. A cluster belongs to the first wave
	// that names it; clusters of the placement no wave names go with the
	// last wave.
	// +required
	Waves []Wave `json:"waves" protobuf:"bytes,2,rep,name=waves"`

	// HealthCheck says when a cluster counts as healthy at a revision.
	// +optional
	HealthCheck HealthCheck `json:"healthCheck,omitempty" protobuf:"bytes,3,opt,name=healthCheck"`

	// OnFailure is what happens when a cluster of a wave does not become
	// healthy within the health check's timeout: Pause (the default),
	// Rollback or Continue.
	// +optional
	OnFailure FailureAction `json:"onFailure,omitempty" protobuf:"bytes,4,opt,name=onFailure,casttype=FailureAction"`

	// RevisionHistoryLimit is how many earlier revisions are kept for
	// rollback and history. Defaults to 10.
	// +optional
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty" protobuf:"varint,5,opt,name=revisionHistoryLimit"`
}

// Wave is one stage of a rollout.
type Wave struct {
	// Name identifies the wave in status, events and `kubectl mco rollout
	// resume --to-wave`.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// ClusterNames are the wave's clusters, by name.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty" protobuf:"bytes,2,rep,name=clusterNames"`

	// LabelSelector picks the wave's clusters by their labels.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty" protobuf:"bytes,3,opt,name=labelSelector"`

	// Rest makes the wave hold every cluster of the placement that no
	// earlier wave names. Only the last wave may set it, and then without
	// clusterNames or labelSelector.
	// +optional
	Rest bool `json:"rest,omitempty" protobuf:"varint,4,opt,name=rest"`

	// MaxUnavailableClusters is how many of the wave's clusters are
	// updated at a time (a number or a percentage of the wave, rounded up).
	// Defaults to every cluster of the wave at once.
	// +optional
	MaxUnavailableClusters *intstr.IntOrString `json:"maxUnavailableClusters,omitempty" protobuf:"bytes,5,opt,name=maxUnavailableClusters"`

	// HealthyFor is how long every cluster of the wave must have stayed
	// healthy at the new revision before the next wave starts.
	// +optional
	HealthyFor *metav1.Duration `json:"healthyFor,omitempty" protobuf:"bytes,6,opt,name=healthyFor"`

	// Pause stops the rollout after this wave until it is resumed.
	// +optional
	Pause bool `json:"pause,omitempty" protobuf:"varint,7,opt,name=pause"`
}

// HealthCheck says what healthy means for one cluster.
type HealthCheck struct {
	// Condition, when set, is the status condition of the member's object
	// that must hold; otherwise the kind's own health counts (a
	// Deployment's replicas all updated and available, a Job complete, a
	// custom kind's health interpretation).
	// +optional
	Condition *ConditionCheck `json:"condition,omitempty" protobuf:"bytes,1,opt,name=condition"`

	// Timeout is how long a cluster may take to become healthy at a new
	// revision (or healthy again) before the wave fails. Defaults to 10m.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty" protobuf:"bytes,2,opt,name=timeout"`
}

// ConditionCheck names a status condition and the status it must have.
type ConditionCheck struct {
	// Type of the condition, such as "Ready".
	// +required
	Type string `json:"type" protobuf:"bytes,1,opt,name=type"`

	// Status the condition must have. Defaults to "True".
	// +optional
	Status metav1.ConditionStatus `json:"status,omitempty" protobuf:"bytes,2,opt,name=status,casttype=k8s.io/apimachinery/pkg/apis/meta/v1.ConditionStatus"`
}

// FailureAction is what a failed wave leads to.
type FailureAction string

const (
	// FailurePause stops the rollout where it is until resumed or undone.
	FailurePause FailureAction = "Pause"
	// FailureRollback undoes the revision: the template on mco gets the
	// last revision that completed, sent at once to every cluster.
	FailureRollback FailureAction = "Rollback"
	// FailureContinue records the failure and goes on with the next wave.
	FailureContinue FailureAction = "Continue"
)

// RolloutPolicyStatus counts the rollouts a policy governs by state and
// says where each stands.
type RolloutPolicyStatus struct {
	// ObservedGeneration is the policy generation the counts reflect.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`

	// Rollouts is how many templates the policy governs.
	// +optional
	Rollouts int32 `json:"rollouts,omitempty" protobuf:"varint,2,opt,name=rollouts"`

	// Progressing, Paused, Failed and Complete count the rollouts in each
	// state.
	// +optional
	Progressing int32 `json:"progressing,omitempty" protobuf:"varint,3,opt,name=progressing"`
	// +optional
	Paused int32 `json:"paused,omitempty" protobuf:"varint,4,opt,name=paused"`
	// +optional
	Failed int32 `json:"failed,omitempty" protobuf:"varint,5,opt,name=failed"`
	// +optional
	Complete int32 `json:"complete,omitempty" protobuf:"varint,6,opt,name=complete"`

	// Summaries say where each rollout stands, the first 50 by namespace
	// and name (the counts above cover them all); each one's Rollout has
	// its history.
	// +optional
	Summaries []RolloutSummary `json:"summaries,omitempty" protobuf:"bytes,7,rep,name=summaries"`
}

// MaxSummaries bounds a policy's status.summaries.
const MaxSummaries = 50

// RolloutSummary is where one rollout a policy governs stands.
type RolloutSummary struct {
	// Namespace and Name of the Rollout.
	// +required
	Namespace string `json:"namespace" protobuf:"bytes,1,opt,name=namespace"`
	// +required
	Name string `json:"name" protobuf:"bytes,2,opt,name=name"`
	// Resource is the template.
	// +required
	Resource ResourceReference `json:"resource" protobuf:"bytes,3,opt,name=resource"`
	// CurrentRevision is the revision being rolled out; StableRevision the
	// last that reached every cluster.
	// +optional
	CurrentRevision int64 `json:"currentRevision,omitempty" protobuf:"varint,4,opt,name=currentRevision"`
	// +optional
	StableRevision int64 `json:"stableRevision,omitempty" protobuf:"varint,5,opt,name=stableRevision"`
	// Wave in progress.
	// +optional
	Wave string `json:"wave,omitempty" protobuf:"bytes,6,opt,name=wave"`
	// State is Progressing, Paused, Failed or Complete.
	// +optional
	State string `json:"state,omitempty" protobuf:"bytes,7,opt,name=state"`
	// Clusters are each cluster's revision and health.
	// +optional
	Clusters []ClusterSummary `json:"clusters,omitempty" protobuf:"bytes,8,rep,name=clusters"`
}

// ClusterSummary is one cluster's revision and health in a rollout.
type ClusterSummary struct {
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// +required
	Revision int64 `json:"revision" protobuf:"varint,2,opt,name=revision"`
	// +optional
	Health ClusterHealth `json:"health,omitempty" protobuf:"bytes,3,opt,name=health,casttype=ClusterHealth"`
}
