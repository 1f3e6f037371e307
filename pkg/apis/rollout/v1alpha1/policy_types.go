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
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec selects templates and describes their waves.
	// +required
	Spec RolloutPolicySpec `json:"spec"`

	// Status counts the rollouts the policy governs.
	// +optional
	Status RolloutPolicyStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// RolloutPolicyList is a list of RolloutPolicies.
type RolloutPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []RolloutPolicy `json:"items"`
}

// +genclient
// +genclient:nonNamespaced
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterRolloutPolicy is a RolloutPolicy for templates in any namespace
// and cluster-scoped ones. A RolloutPolicy selecting the same template
// wins over it.
type ClusterRolloutPolicy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Spec selects templates and describes their waves.
	// +required
	Spec RolloutPolicySpec `json:"spec"`

	// Status counts the rollouts the policy governs.
	// +optional
	Status RolloutPolicyStatus `json:"status,omitempty"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// ClusterRolloutPolicyList is a list of ClusterRolloutPolicies.
type ClusterRolloutPolicyList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ClusterRolloutPolicy `json:"items"`
}

// RolloutPolicySpec is the body of a RolloutPolicy or ClusterRolloutPolicy.
type RolloutPolicySpec struct {
	// ResourceSelectors pick the templates whose changes are staged, as a
	// PropagationPolicy's do. When several policies select a template, the
	// most specific wins (a RolloutPolicy over a ClusterRolloutPolicy,
	// then a name over a label selector over a kind, then the smaller
	// name).
	// +required
	ResourceSelectors []policyv1alpha1.ResourceSelector `json:"resourceSelectors"`

	// Waves are the stages, in order. A cluster belongs to the first wave
	// that names it; clusters of the placement no wave names go with the
	// last wave.
	// +required
	Waves []Wave `json:"waves"`

	// HealthCheck says when a cluster counts as healthy at a revision.
	// +optional
	HealthCheck HealthCheck `json:"healthCheck,omitempty"`

	// OnFailure is what happens when a cluster of a wave does not become
	// healthy within the health check's timeout: Pause (the default),
	// Rollback or Continue.
	// +optional
	OnFailure FailureAction `json:"onFailure,omitempty"`

	// RevisionHistoryLimit is how many earlier revisions are kept for
	// rollback and history. Defaults to 10.
	// +optional
	RevisionHistoryLimit *int32 `json:"revisionHistoryLimit,omitempty"`
}

// Wave is one stage of a rollout.
type Wave struct {
	// Name identifies the wave in status, events and `kubectl mco rollout
	// resume --to-wave`.
	// +required
	Name string `json:"name"`

	// ClusterNames are the wave's clusters, by name.
	// +optional
	ClusterNames []string `json:"clusterNames,omitempty"`

	// LabelSelector picks the wave's clusters by their labels.
	// +optional
	LabelSelector *metav1.LabelSelector `json:"labelSelector,omitempty"`

	// Rest makes the wave hold every cluster of the placement that no
	// earlier wave names. Only the last wave may set it, and then without
	// clusterNames or labelSelector.
	// +optional
	Rest bool `json:"rest,omitempty"`

	// MaxUnavailableClusters is how many of the wave's clusters are
	// updated at a time (a number or a percentage of the wave, rounded up).
	// Defaults to every cluster of the wave at once.
	// +optional
	MaxUnavailableClusters *intstr.IntOrString `json:"maxUnavailableClusters,omitempty"`

	// HealthyFor is how long every cluster of the wave must have stayed
	// healthy at the new revision before the next wave starts.
	// +optional
	HealthyFor *metav1.Duration `json:"healthyFor,omitempty"`

	// Pause stops the rollout after this wave until it is resumed.
	// +optional
	Pause bool `json:"pause,omitempty"`
}

// HealthCheck says what healthy means for one cluster.
type HealthCheck struct {
	// Condition, when set, is the status condition of the member's object
	// that must hold; otherwise the kind's own health counts (a
	// Deployment's replicas all updated and available, a Job complete, a
	// custom kind's health interpretation).
	// +optional
	Condition *ConditionCheck `json:"condition,omitempty"`

	// Timeout is how long a cluster may take to become healthy at a new
	// revision (or healthy again) before the wave fails. Defaults to 10m.
	// +optional
	Timeout *metav1.Duration `json:"timeout,omitempty"`
}

// ConditionCheck names a status condition and the status it must have.
type ConditionCheck struct {
	// Type of the condition, such as "Ready".
	// +required
	Type string `json:"type"`

	// Status the condition must have. Defaults to "True".
	// +optional
	Status metav1.ConditionStatus `json:"status,omitempty"`
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
	ObservedGeneration int64 `json:"observedGeneration,omitempty"`

	// Rollouts is how many templates the policy governs.
	// +optional
	Rollouts int32 `json:"rollouts,omitempty"`

	// Progressing, Paused, Failed and Complete count the rollouts in each
	// state.
	// +optional
	Progressing int32 `json:"progressing,omitempty"`
	// +optional
	Paused int32 `json:"paused,omitempty"`
	// +optional
	Failed int32 `json:"failed,omitempty"`
	// +optional
	Complete int32 `json:"complete,omitempty"`

	// Summaries say where each rollout stands, the first 50 by namespace
	// and name (the counts above cover them all); each one's Rollout has
	// its history.
	// +optional
	Summaries []RolloutSummary `json:"summaries,omitempty"`
}

// MaxSummaries bounds a policy's status.summaries.
const MaxSummaries = 50

// RolloutSummary is where one rollout a policy governs stands.
type RolloutSummary struct {
	// Namespace and Name of the Rollout.
	// +required
	Namespace string `json:"namespace"`
	// +required
	Name string `json:"name"`
	// Resource is the template.
	// +required
	Resource ResourceReference `json:"resource"`
	// CurrentRevision is the revision being rolled out; StableRevision the
	// last that reached every cluster.
	// +optional
	CurrentRevision int64 `json:"currentRevision,omitempty"`
	// +optional
	StableRevision int64 `json:"stableRevision,omitempty"`
	// Wave in progress.
	// +optional
	Wave string `json:"wave,omitempty"`
	// State is Progressing, Paused, Failed or Complete.
	// +optional
	State string `json:"state,omitempty"`
	// Clusters are each cluster's revision and health.
	// +optional
	Clusters []ClusterSummary `json:"clusters,omitempty"`
}

// ClusterSummary is one cluster's revision and health in a rollout.
type ClusterSummary struct {
	// +required
	Name string `json:"name"`
	// +required
	Revision int64 `json:"revision"`
	// +optional
	Health ClusterHealth `json:"health,omitempty"`
}
