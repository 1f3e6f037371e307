package addon

import (
	"fmt"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

func TestConditions(t *testing.T) {
	c := func(name string, p addonsv1alpha1.AddonPhase) addonsv1alpha1.AddonClusterStatus {
		return addonsv1alpha1.AddonClusterStatus{Name: name, Phase: p}
	}
	tests := []struct {
		name       string
		clusters   []addonsv1alpha1.AddonClusterStatus
		notRenewed map[string]string
		want       string // Ready, Progressing, Failed statuses and the messages that matter
	}{
		{name: "placed nowhere", want: "False NotPlaced | False | False"},
		{name: "healthy everywhere", clusters: []addonsv1alpha1.AddonClusterStatus{c("member1", "Healthy"), c("member2", "Healthy")},
			want: "True Healthy in 2 cluster(s) | False | False"},
		{name: "one installing, one waiting, one failed",
			clusters: []addonsv1alpha1.AddonClusterStatus{c("member3", "Failed"), c("member1", "Installing"), c("member2", "WaitingForDependency"), c("member4", "Healthy")},
			want: "False Healthy in 1 of 4 cluster(s); Failed: member3; Installing: member1; WaitingForDependency: member2 | " +
				"True Installing: member1; WaitingForDependency: member2 | True Failed: member3"},
		{name: "blocked is neither progressing nor failed", clusters: []addonsv1alpha1.AddonClusterStatus{c("member2", "Blocked")},
			want: "False Healthy in 0 of 1 cluster(s); Blocked: member2 | False | False"},
		{name: "healthy with what it had, the new chart unavailable", clusters: []addonsv1alpha1.AddonClusterStatus{c("member1", "Healthy")},
			notRenewed: map[string]string{"member1": "fetch chart: connection refused"},
			want:       "False cluster(s) member1 keep running an earlier revision: fetch chart: connection refused | False | False"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			conds := Conditions(tt.clusters, tt.notRenewed, 3)
			s := func(c metav1.Condition) string {
				if c.Status == metav1.ConditionTrue || c.Type == addonsv1alpha1.AddonReady {
					msg := c.Message
					if c.Reason == ReasonNotPlaced {
						msg = c.Reason
					}
					return string(c.Status) + " " + msg
				}
				return string(c.Status)
			}
			got := fmt.Sprintf("%s | %s | %s", s(conds[0]), s(conds[1]), s(conds[2]))
			if got != tt.want {
				t.Errorf("conditions\n got %s\nwant %s", got, tt.want)
			}
			for _, c := range conds {
				if c.ObservedGeneration != 3 || c.Reason == "" {
					t.Errorf("%s: generation %d, reason %q", c.Type, c.ObservedGeneration, c.Reason)
				}
			}
		})
	}
}
