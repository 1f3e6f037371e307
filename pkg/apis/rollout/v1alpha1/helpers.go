package v1alpha1

import "k8s.io/apimachinery/pkg/api/meta"

// State is a one-word summary of the conditions: Failed, Paused, Complete
// or Progressing, in that order of precedence; "" before the first
// decision.
func (st *RolloutStatus) State() string {
	for _, c := range []string{ConditionFailed, ConditionPaused, ConditionComplete, ConditionProgressing} {
		if meta.IsStatusConditionTrue(st.Conditions, c) {
			return c
		}
	}
	return ""
}

// StateMessage is the message of the condition that names the state; ""
// when there is none.
func (st *RolloutStatus) StateMessage() string {
	if s := st.State(); s != "" {
		if c := meta.FindStatusCondition(st.Conditions, s); c != nil {
			return c.Message
		}
	}
	return ""
}
