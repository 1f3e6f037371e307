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

// FailoverBehavior groups the failover settings for application failures and
// for cluster failures.
type FailoverBehavior struct {
	// Application, when set, moves the workload away from a cluster where it
	// stays unhealthy. Nil turns application failover off. Set PropagateDeps
	// too, so dependencies move along.
	// +optional
	Application *ApplicationFailoverBehavior `json:"application,omitempty" protobuf:"bytes,1,opt,name=application"`

	// Cluster tunes what happens when a whole cluster fails. Nil falls back to
	// the controller's command-line default.
	// +optional
	Cluster *ClusterFailoverBehavior `json:"cluster,omitempty" protobuf:"bytes,2,opt,name=cluster"`
}

// ApplicationFailoverBehavior tunes failover caused by an unhealthy application.
type ApplicationFailoverBehavior struct {
	// DecisionConditions must all hold before failover starts.
	// +required
	DecisionConditions DecisionConditions `json:"decisionConditions" protobuf:"bytes,1,opt,name=decisionConditions"`

	// PurgeMode says how the old copy is removed: Directly, Gracefully (the
	// default) or Never.
	// +optional
	PurgeMode PurgeMode `json:"purgeMode,omitempty" protobuf:"bytes,2,opt,name=purgeMode,casttype=PurgeMode"`

	// GracePeriodSeconds is the longest wait, with PurgeMode Gracefully, before
	// the old copy is deleted even if the new one is not healthy yet. Unset
	// means 600. Must be positive.
	// +optional
	GracePeriodSeconds *int32 `json:"gracePeriodSeconds,omitempty" protobuf:"varint,3,opt,name=gracePeriodSeconds"`

	// StatePreservation copies selected status values from the old copy into
	// labels on the new one (needs the StatefulFailoverInjection gate).
	// +optional
	StatePreservation *StatePreservation `json:"statePreservation,omitempty" protobuf:"bytes,4,opt,name=statePreservation"`
}

// ClusterFailoverBehavior tunes failover caused by a failed cluster.
type ClusterFailoverBehavior struct {
	// PurgeMode says how the old copy is removed: Directly or Gracefully (the
	// default).
	// +optional
	PurgeMode PurgeMode `json:"purgeMode,omitempty" protobuf:"bytes,1,opt,name=purgeMode,casttype=PurgeMode"`

	// StatePreservation copies selected status values from the old copy into
	// labels on the new one (needs the StatefulFailoverInjection gate).
	// +optional
	StatePreservation *StatePreservation `json:"statePreservation,omitempty" protobuf:"bytes,2,opt,name=statePreservation"`
}

// DecisionConditions are the conditions checked before an application fails over.
type DecisionConditions struct {
	// TolerationSeconds is how long the application may stay unhealthy before
	// it is moved. Unset means 300.
	// +optional
	TolerationSeconds *int32 `json:"tolerationSeconds,omitempty" protobuf:"varint,1,opt,name=tolerationSeconds"`
}

// StatePreservation lists the pieces of state carried over on failover.
type StatePreservation struct {
	// Rules say which values to keep and under which label key.
	// +required
	Rules StatePreservationRules `json:"rules" protobuf:"bytes,1,opt,name=rules"`
}

// StatePreservationRule keeps one value from the old copy's status.
type StatePreservationRule struct {
	// AliasLabelName is the label key the value is handed over under.
	// +required
	AliasLabelName string `json:"aliasLabelName" protobuf:"bytes,1,opt,name=aliasLabelName"`

	// JSONPath picks the value, relative to the resource's status, e.g.
	// "{.availableReplicas}".
	// +required
	JSONPath string `json:"jsonPath" protobuf:"bytes,2,opt,name=jsonPath"`
}

// StatePreservationRules is a list of rules in which an empty list and a
// missing one stay apart, in protobuf as in JSON: rules may be empty, not
// missing.
// +protobuf.nullable=true
// +protobuf.options.(gogoproto.goproto_stringer)=false
type StatePreservationRules []StatePreservationRule
