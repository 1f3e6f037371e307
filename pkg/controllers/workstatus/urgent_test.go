package workstatus

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestUrgent(t *testing.T) {
	t.Parallel()
	status := func(applied, available metav1.ConditionStatus) *workv1alpha1.WorkStatus {
		st := &workv1alpha1.WorkStatus{}
		if applied != "" {
			st.Conditions = append(st.Conditions, metav1.Condition{Type: workv1alpha1.WorkApplied, Status: applied})
		}
		if available != "" {
			st.Conditions = append(st.Conditions, metav1.Condition{Type: workv1alpha1.WorkAvailable, Status: available})
		}
		return st
	}
	none := status("", "")
	dropped := func(st *workv1alpha1.WorkStatus, msg string) *workv1alpha1.WorkStatus {
		st.Conditions = append(st.Conditions, metav1.Condition{Type: workv1alpha1.WorkDegraded, Status: metav1.ConditionTrue, Message: msg})
		return st
	}
	cases := []struct {
		name     string
		old, new *workv1alpha1.WorkStatus
		want     bool
	}{
		{"a first apply on its way waits", none, status(metav1.ConditionTrue, metav1.ConditionFalse), false},
		{"progress on the way waits", status(metav1.ConditionTrue, metav1.ConditionFalse), status(metav1.ConditionTrue, metav1.ConditionFalse), false},
		{"becoming Available is written at once", status(metav1.ConditionTrue, metav1.ConditionFalse), status(metav1.ConditionTrue, metav1.ConditionTrue), true},
		{"a first apply already healthy is written at once", none, status(metav1.ConditionTrue, metav1.ConditionTrue), true},
		{"a failed apply is written at once", none, status(metav1.ConditionFalse, ""), true},
		{"a member's dropping fields is written at once", status(metav1.ConditionTrue, metav1.ConditionFalse), dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), true},
		{"the same dropped fields on the way wait", dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), false},
		{"fields no longer dropped are written at once", dropped(status(metav1.ConditionTrue, metav1.ConditionFalse), "a"), status(metav1.ConditionTrue, metav1.ConditionFalse), true},
		{"breaking is written at once", status(metav1.ConditionTrue, metav1.ConditionTrue), status(metav1.ConditionTrue, metav1.ConditionFalse), true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := Urgent(c.old, c.new); got != c.want {
				t.Errorf("Urgent = %t, want %t", got, c.want)
			}
		})
	}
}
