package v1alpha1

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Defaults of a RolloutPolicySpec.
const (
	DefaultTimeout              = 10 * time.Minute
	DefaultRevisionHistoryLimit = 10
)

// SetDefaults fills what a policy leaves out: onFailure Pause, a 10m
// health timeout and a history of 10 revisions.
func (s *RolloutPolicySpec) SetDefaults() {
	if s.OnFailure == "" {
		s.OnFailure = FailurePause
	}
	if s.HealthCheck.Timeout == nil {
		s.HealthCheck.Timeout = &metav1.Duration{Duration: DefaultTimeout}
	}
	if s.HealthCheck.Condition != nil && s.HealthCheck.Condition.Status == "" {
		s.HealthCheck.Condition.Status = metav1.ConditionTrue
	}
	if s.RevisionHistoryLimit == nil {
		limit := int32(DefaultRevisionHistoryLimit)
		s.RevisionHistoryLimit = &limit
	}
}
