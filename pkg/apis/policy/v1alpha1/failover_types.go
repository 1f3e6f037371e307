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
	Application *ApplicationFailoverBehavior `json:"application,omitempty"`

	// Cluster tunes what happens when a whole cluster fails. Nil falls back to
	// the controller's command-line default.
	// +optional
	Cluster *ClusterFailoverBehavior `json:"cluster,omitempty"`
}

// ApplicationFailoverBehavior tunes failover caused by an unhealthy application.
type ApplicationFailoverBehavior struct {
	// DecisionConditions must all hold before failover starts.
	// +required
	DecisionConditions DecisionConditions `json:"decisionConditions"`

	// PurgeMode says how the old copy is removed: Directly, Gracefully (the
	// default) or Never.
	// +optional
	PurgeMode PurgeMode `json:"purgeMode,omitempty"`

	// GracePeriodSeconds is the longest wait, with PurgeMode Gracefully, before
	// the old copy is deleted even if the new one is not healthy yet. Unset
	// means 600. Must be positive.
	// +optional
	GracePeriodSeconds *int32 `json:"gracePeriodSeconds,omitempty"`

	// StatePreservation copies selected status values from the old copy into
	// labels on the new one (needs the StatefulFailoverInjection gate).
	// +optional
	StatePreservation *StatePreservation `json:"statePreservation,omitempty"`
}

// ClusterFailoverBehavior tunes failover caused by a failed cluster.
type ClusterFailoverBehavior struct {
	// PurgeMode says how the old copy is removed: Directly or Gracefully (the
	// default).
	// +optional
	PurgeMode PurgeMode `json:"purgeMode,omitempty"`

	// StatePreservation copies selected status values from the old copy into
	// labels on the new one (needs the StatefulFailoverInjection gate).
	// +optional
	StatePreservation *StatePreservation `json:"statePreservation,omitempty"`
}

// DecisionConditions are the conditions checked before an application fails over.
type DecisionConditions struct {
	// TolerationSeconds is how long the application may stay unhealthy before
	// it is moved. Unset means 300.
	// +optional
	TolerationSeconds *int32 `json:"tolerationSeconds,omitempty"`
}

// StatePreservation lists the pieces of state carried over on failover.
type StatePreservation struct {
	// Rules say which values to keep and under which label key.
	// +required
	Rules []StatePreservationRule `json:"rules"`
}

// StatePreservationRule keeps one value from the old copy's status.
type StatePreservationRule struct {
	// AliasLabelName is the label key the value is handed over under.
	// +required
	AliasLabelName string `json:"aliasLabelName"`

	// JSONPath picks the value, relative to the resource's status, e.g.
	// "{.availableReplicas}".
	// +required
	JSONPath string `json:"jsonPath"`
}
