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
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// +genclient
// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CronFederatedHPA scales a resource template (anything with a scale
// subresource), or moves a FederatedHPA's bounds, on cron schedules.
type CronFederatedHPA struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`

	// Spec names the target and the rules.
	// +required
	Spec CronFederatedHPASpec `json:"spec" protobuf:"bytes,2,opt,name=spec"`

	// Status records each rule's executions.
	// +optional
	Status CronFederatedHPAStatus `json:"status" protobuf:"bytes,3,opt,name=status"`
}

// CronFederatedHPASpec names what the rules scale.
type CronFederatedHPASpec struct {
	// ScaleTargetRef is a resource template with a scale subresource (its
	// replicas are set) or a FederatedHPA
	// (autoscaling.karmada.io/v1alpha1, its minReplicas and maxReplicas
	// are set).
	// +required
	ScaleTargetRef autoscalingv2.CrossVersionObjectReference `json:"scaleTargetRef" protobuf:"bytes,1,opt,name=scaleTargetRef"`

	// Rules are the schedules and what each sets.
	// +required
	Rules []CronFederatedHPARule `json:"rules" protobuf:"bytes,2,rep,name=rules"`
}

// CronFederatedHPARule is one schedule and what it sets.
type CronFederatedHPARule struct {
	// Name identifies the rule in the status; unique in the
	// CronFederatedHPA, 1 to 32 characters. A renamed rule is a new rule:
	// the old name's history goes.
	// +required
	Name string `json:"name" protobuf:"bytes,1,opt,name=name"`

	// Schedule is a five-field cron expression (minute hour day-of-month
	// month day-of-week), as a CronJob's.
	// +required
	Schedule string `json:"schedule" protobuf:"bytes,2,opt,name=schedule"`

	// TargetReplicas is what the rule sets a template's replicas to
	// (required unless the target is a FederatedHPA).
	// +optional
	TargetReplicas *int32 `json:"targetReplicas,omitempty" protobuf:"varint,3,opt,name=targetReplicas"`

	// TargetMinReplicas is what the rule sets a FederatedHPA's
	// minReplicas to; unset leaves it.
	// +optional
	TargetMinReplicas *int32 `json:"targetMinReplicas,omitempty" protobuf:"varint,4,opt,name=targetMinReplicas"`

	// TargetMaxReplicas is what the rule sets a FederatedHPA's
	// maxReplicas to; unset leaves it.
	// +optional
	TargetMaxReplicas *int32 `json:"targetMaxReplicas,omitempty" protobuf:"varint,5,opt,name=targetMaxReplicas"`

	// Suspend stops the rule's next executions; false when unset.
	// +optional
	Suspend *bool `json:"suspend,omitempty" protobuf:"varint,6,opt,name=suspend"`

	// TimeZone is the IANA time zone the schedule is read in; the
	// controller's own zone when unset.
	// +optional
	TimeZone *string `json:"timeZone,omitempty" protobuf:"bytes,7,opt,name=timeZone"`

	// SuccessfulHistoryLimit is how many successful executions the status
	// keeps for the rule (1 to 32; 3 when unset).
	// +optional
	SuccessfulHistoryLimit *int32 `json:"successfulHistoryLimit,omitempty" protobuf:"varint,8,opt,name=successfulHistoryLimit"`

	// FailedHistoryLimit is how many failed executions the status keeps
	// for the rule (0 to 32; 3 when unset).
	// +optional
	FailedHistoryLimit *int32 `json:"failedHistoryLimit,omitempty" protobuf:"varint,9,opt,name=failedHistoryLimit"`
}

// CronFederatedHPAStatus records the rules' executions.
type CronFederatedHPAStatus struct {
	// ExecutionHistories holds one entry per rule.
	// +optional
	ExecutionHistories []ExecutionHistory `json:"executionHistories,omitempty" protobuf:"bytes,1,rep,name=executionHistories"`
}

// ExecutionHistory is the record of one rule.
type ExecutionHistory struct {
	// RuleName is the rule's name.
	// +required
	RuleName string `json:"ruleName" protobuf:"bytes,1,opt,name=ruleName"`

	// NextExecutionTime is when the rule runs next; unset while it is
	// suspended.
	// +optional
	NextExecutionTime *metav1.Time `json:"nextExecutionTime,omitempty" protobuf:"bytes,2,opt,name=nextExecutionTime"`

	// SuccessfulExecutions are the latest successful runs, newest first.
	// +optional
	SuccessfulExecutions []SuccessfulExecution `json:"successfulExecutions,omitempty" protobuf:"bytes,3,rep,name=successfulExecutions"`

	// FailedExecutions are the latest failed runs, newest first.
	// +optional
	FailedExecutions []FailedExecution `json:"failedExecutions,omitempty" protobuf:"bytes,4,rep,name=failedExecutions"`
}

// SuccessfulExecution is one successful run of a rule.
type SuccessfulExecution struct {
	// ScheduleTime is when the schedule called for the run.
	// +required
	ScheduleTime *metav1.Time `json:"scheduleTime" protobuf:"bytes,1,opt,name=scheduleTime"`

	// ExecutionTime is when it ran.
	// +required
	ExecutionTime *metav1.Time `json:"executionTime" protobuf:"bytes,2,opt,name=executionTime"`

	// AppliedReplicas is the replicas set (rules with targetReplicas).
	// +optional
	AppliedReplicas *int32 `json:"appliedReplicas,omitempty" protobuf:"varint,3,opt,name=appliedReplicas"`

	// AppliedMaxReplicas is the maxReplicas set (rules with
	// targetMaxReplicas).
	// +optional
	AppliedMaxReplicas *int32 `json:"appliedMaxReplicas,omitempty" protobuf:"varint,4,opt,name=appliedMaxReplicas"`

	// AppliedMinReplicas is the minReplicas set (rules with
	// targetMinReplicas).
	// +optional
	AppliedMinReplicas *int32 `json:"appliedMinReplicas,omitempty" protobuf:"varint,5,opt,name=appliedMinReplicas"`
}

// FailedExecution is one failed run of a rule.
type FailedExecution struct {
	// ScheduleTime is when the schedule called for the run.
	// +required
	ScheduleTime *metav1.Time `json:"scheduleTime" protobuf:"bytes,1,opt,name=scheduleTime"`

	// ExecutionTime is when it ran.
	// +required
	ExecutionTime *metav1.Time `json:"executionTime" protobuf:"bytes,2,opt,name=executionTime"`

	// Message says why it failed.
	// +required
	Message string `json:"message" protobuf:"bytes,3,opt,name=message"`
}

// +k8s:deepcopy-gen:interfaces=k8s.io/apimachinery/pkg/runtime.Object

// CronFederatedHPAList is a list of CronFederatedHPAs.
type CronFederatedHPAList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty" protobuf:"bytes,1,opt,name=metadata"`
	Items           []CronFederatedHPA `json:"items" protobuf:"bytes,2,rep,name=items"`
}
