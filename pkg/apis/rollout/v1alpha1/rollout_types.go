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
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// Rollout is mco's record of one template's staged rollout, named as the
// template's binding and kept in the template's namespace (a
// cluster-scoped template's in karmada-system). mco creates and deletes
// it; users change its spec to pause, resume or roll back.
type Rollout struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec names the template and holds the user's requests.
	// +required
	Spec RolloutSpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status is where the rollout stands and what ran where.
	// +optional
	Status RolloutStatus `json:"status,omitempty" protobuf:"bytes,3,opt,name=status"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// RolloutList is a list of Rollouts.
type RolloutList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []Rollout `json:"items" protobuf:"bytes,2,rep,name=items"`
}

// RolloutSpec names the template and carries pause, resume and rollback.
type RolloutSpec struct {
	// Resource is the template whose changes are staged.
	// +required
	Resource ResourceReference `json:"resource" protobuf:"bytes,1,opt,name=resource"`

	// Paused holds the rollout: no cluster gets a new revision until it is
	// cleared.
	// +optional
	Paused bool `json:"paused,omitempty" protobuf:"varint,2,opt,name=paused"`

	// Release lets a revision's rollout go past the pauses of waves, up to
	// and including the named wave.
	// +optional
	Release *WaveRelease `json:"release,omitempty" protobuf:"bytes,3,opt,name=release"`

	// Rollback marks the template's next content as a return to an earlier
	// revision, which goes at once to every cluster not running it.
	// `kubectl mco rollout undo` sets it before it writes that revision's
	// content into the template.
	// +optional
	Rollback *RollbackRequest `json:"rollback,omitempty" protobuf:"bytes,4,opt,name=rollback"`
}

// ResourceReference names a template.
type ResourceReference struct {
	// APIVersion of the template, such as "apps/v1".
	// +required
	APIVersion string `json:"apiVersion" protobuf:"bytes,1,opt,name=apiVersion"`
	// Kind of the template.
	// +required
	Kind string `json:"kind" protobuf:"bytes,2,opt,name=kind"`
	// Namespace of the template; empty for a cluster-scoped one.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,3,opt,name=namespace"`
	// Name of the template.
	// +required
	Name string `json:"name" protobuf:"bytes,4,opt,name=name"`
}

// WaveRelease resumes a revision's rollout through a wave.
type WaveRelease struct {
	// Revision whose rollout is released.
	// +required
	Revision int64 `json:"revision" protobuf:"varint,1,opt,name=revision"`
	// ThroughWave is the last wave the rollout may start without stopping
	// at a wave's pause.
	// +required
	ThroughWave string `json:"throughWave" protobuf:"bytes,2,opt,name=throughWave"`
	// Time is when the release was given; a release given after a wave
	// failed retries that wave.
	// +required
	Time metav1.Time `json:"time" protobuf:"bytes,3,opt,name=time"`
}

// RollbackRequest asks for a return to an earlier revision.
type RollbackRequest struct {
	// ToRevision is the revision to return to.
	// +required
	ToRevision int64 `json:"toRevision" protobuf:"varint,1,opt,name=toRevision"`
	// FromRevision is the revision being left; the request holds only
	// while it is the current one.
	// +required
	FromRevision int64 `json:"fromRevision" protobuf:"varint,2,opt,name=fromRevision"`
	// Reason says why, for the history.
	// +optional
	Reason string `json:"reason,omitempty" protobuf:"bytes,3,opt,name=reason"`
}

// RolloutStatus is where a rollout stands.
type RolloutStatus struct {
	// ObservedGeneration is the Rollout generation this status reflects.
	// +optional
	ObservedGeneration int64 `json:"observedGeneration,omitempty" protobuf:"varint,1,opt,name=observedGeneration"`

	// Policy is the RolloutPolicy or ClusterRolloutPolicy that governs the
	// template.
	// +optional
	Policy PolicyReference `json:"policy,omitempty" protobuf:"bytes,2,opt,name=policy"`

	// CurrentRevision is the revision of the template's content now, the
	// one being rolled out.
	// +optional
	CurrentRevision int64 `json:"currentRevision,omitempty" protobuf:"varint,3,opt,name=currentRevision"`

	// StableRevision is the last revision that reached every cluster; the
	// one clusters keep until their wave comes.
	// +optional
	StableRevision int64 `json:"stableRevision,omitempty" protobuf:"varint,4,opt,name=stableRevision"`

	// Wave is the name of the wave in progress; empty when none is.
	// +optional
	Wave string `json:"wave,omitempty" protobuf:"bytes,5,opt,name=wave"`

	// WaveIndex is the position of that wave among the policy's waves,
	// from 0.
	// +optional
	WaveIndex int32 `json:"waveIndex,omitempty" protobuf:"varint,6,opt,name=waveIndex"`

	// WaveStartTime is when the wave in progress started.
	// +optional
	WaveStartTime *metav1.Time `json:"waveStartTime,omitempty" protobuf:"bytes,7,opt,name=waveStartTime"`

	// Clusters are the clusters of the placement: the revision each is
	// given and how it is doing at it.
	// +optional
	Clusters []ClusterRevision `json:"clusters,omitempty" protobuf:"bytes,8,rep,name=clusters"`

	// History has one entry per revision kept, newest first: when it
	// reached each cluster and with what result.
	// +optional
	History []RevisionHistory `json:"history,omitempty" protobuf:"bytes,9,rep,name=history"`

	// Conditions are Progressing, Paused, Failed and Complete.
	// +optional
	Conditions []metav1.Condition `json:"conditions,omitempty" protobuf:"bytes,10,rep,name=conditions"`
}

// PolicyReference names a RolloutPolicy (with its namespace) or a
// ClusterRolloutPolicy.
type PolicyReference struct {
	// Kind is RolloutPolicy or ClusterRolloutPolicy.
	// +optional
	Kind string `json:"kind,omitempty" protobuf:"bytes,1,opt,name=kind"`
	// Namespace of a RolloutPolicy.
	// +optional
	Namespace string `json:"namespace,omitempty" protobuf:"bytes,2,opt,name=namespace"`
	// Name of the policy.
	// +optional
	Name string `json:"name,omitempty" protobuf:"bytes,3,opt,name=name"`
}

// ClusterRevision is one cluster's place in the rollout.
type ClusterRevision struct {
	// Name of the cluster.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// Wave the cluster belongs to.
	// +optional
	Wave string `json:"wave,omitempty" protobuf:"bytes,2,opt,name=wave"`
	// Revision the cluster is given.
	// +required
	Revision int64 `json:"revision" protobuf:"varint,3,opt,name=revision"`
	// Health of the cluster at that revision: Healthy, Unhealthy or
	// Unknown (not applied or not observed yet).
	// +optional
	Health ClusterHealth `json:"health,omitempty" protobuf:"bytes,4,opt,name=health,casttype=ClusterHealth"`
	// Message says what is not healthy.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,5,opt,name=message"`
	// LastTransitionTime is when the cluster got its revision or its
	// health last changed.
	// +optional
	LastTransitionTime *metav1.Time `json:"lastTransitionTime,omitempty" protobuf:"bytes,6,opt,name=lastTransitionTime"`
}

// ClusterHealth is a cluster's health at its revision.
type ClusterHealth string

const (
	// ClusterHealthy means the health check holds at the revision.
	ClusterHealthy ClusterHealth = "Healthy"
	// ClusterUnhealthy means the member reports the object unhealthy.
	ClusterUnhealthy ClusterHealth = "Unhealthy"
	// ClusterHealthUnknown means not yet applied or observed.
	ClusterHealthUnknown ClusterHealth = "Unknown"
)

// RevisionHistory is what one revision did.
type RevisionHistory struct {
	// Revision number.
	// +required
	Revision int64 `json:"revision" protobuf:"varint,1,opt,name=revision"`
	// ChangeCause is the template's kubernetes.io/change-cause annotation
	// at that revision.
	// +optional
	ChangeCause string `json:"changeCause,omitempty" protobuf:"bytes,2,opt,name=changeCause"`
	// CreationTime is when the revision was first seen.
	// +optional
	CreationTime metav1.Time `json:"creationTime,omitempty" protobuf:"bytes,3,opt,name=creationTime"`
	// Clusters is, per cluster that got the revision, when and how.
	// +optional
	Clusters []ClusterRecord `json:"clusters,omitempty" protobuf:"bytes,4,rep,name=clusters"`
}

// ClusterRecord is one cluster's run of one revision.
type ClusterRecord struct {
	// Name of the cluster.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`
	// AppliedTime is when the cluster was given the revision.
	// +optional
	AppliedTime *metav1.Time `json:"appliedTime,omitempty" protobuf:"bytes,2,opt,name=appliedTime"`
	// HealthyTime is when it first became healthy at the revision.
	// +optional
	HealthyTime *metav1.Time `json:"healthyTime,omitempty" protobuf:"bytes,3,opt,name=healthyTime"`
	// FailedTime is when it failed the health check.
	// +optional
	FailedTime *metav1.Time `json:"failedTime,omitempty" protobuf:"bytes,4,opt,name=failedTime"`
	// Result is Pending, Healthy, Failed or Replaced (another revision
	// took its place before it became healthy).
	// +optional
	Result string `json:"result,omitempty" protobuf:"bytes,5,opt,name=result"`
	// Message says why it failed.
	// +optional
	Message string `json:"message,omitempty" protobuf:"bytes,6,opt,name=message"`
}

// Condition types of a Rollout.
const (
	// ConditionProgressing is True while a revision is on its way.
	ConditionProgressing = "Progressing"
	// ConditionPaused is True while the rollout waits to be resumed.
	ConditionPaused = "Paused"
	// ConditionFailed is True when a wave failed its health check.
	ConditionFailed = "Failed"
	// ConditionComplete is True when every cluster runs the current
	// revision, healthy.
	ConditionComplete = "Complete"
)

// Record results.
const (
	ResultPending  = "Pending"
	ResultHealthy  = "Healthy"
	ResultFailed   = "Failed"
	ResultReplaced = "Replaced"
)

// Labels and annotations mco sets.
const (
	// RolloutLabel on a ControllerRevision names the Rollout it belongs
	// to. Objects carrying it are never propagated.
	RolloutLabel = "rollout.mco-org.github.io/rollout"
	// RevisionHashLabel on a ControllerRevision is the hash of its content.
	RevisionHashLabel = "rollout.mco-org.github.io/revision-hash"
	// RevisionAnnotation on a Work and its member object is the revision
	// its manifest was rendered from.
	RevisionAnnotation = "rollout.mco-org.github.io/revision"
	// ChangeCauseAnnotation is kubectl's record of why a template changed.
	ChangeCauseAnnotation = "kubernetes.io/change-cause"
)
