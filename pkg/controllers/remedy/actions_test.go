package remedy

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
)

func TestActions(t *testing.T) {
	t.Parallel()
	dnsFalse := []metav1.Condition{{Type: "ServiceDomainNameResolutionReady", Status: metav1.ConditionFalse}, {Type: "Ready", Status: metav1.ConditionTrue}}
	remedy := func(clusters []string, op string, status string, actions ...string) *remedyv1alpha1.Remedy {
		r := &remedyv1alpha1.Remedy{}
		if clusters != nil {
			r.Spec.ClusterAffinity = &remedyv1alpha1.ClusterAffinity{ClusterNames: clusters}
		}
		if op != "" {
			r.Spec.DecisionMatches = []remedyv1alpha1.DecisionMatch{{ClusterConditionMatch: &remedyv1alpha1.ClusterConditionRequirement{
				ConditionType: remedyv1alpha1.ServiceDomainNameResolutionReady, Operator: remedyv1alpha1.ClusterConditionOperator(op), ConditionStatus: status}}}
		}
		for _, a := range actions {
			r.Spec.Actions = append(r.Spec.Actions, remedyv1alpha1.RemedyAction(a))
		}
		return r
	}
	tests := []struct {
		name       string
		remedies   []*remedyv1alpha1.Remedy
		conditions []metav1.Condition
		want       string
	}{
		{name: "no decision match: always", remedies: []*remedyv1alpha1.Remedy{remedy(nil, "", "", "TrafficControl")}, want: "TrafficControl"},
		{name: "Equal holds", remedies: []*remedyv1alpha1.Remedy{remedy(nil, "Equal", "False", "TrafficControl")}, conditions: dnsFalse, want: "TrafficControl"},
		{name: "Equal does not hold", remedies: []*remedyv1alpha1.Remedy{remedy(nil, "Equal", "True", "TrafficControl")}, conditions: dnsFalse},
		{name: "NotEqual holds", remedies: []*remedyv1alpha1.Remedy{remedy(nil, "NotEqual", "True", "TrafficControl")}, conditions: dnsFalse, want: "TrafficControl"},
		{name: "a condition the cluster lacks never matches", remedies: []*remedyv1alpha1.Remedy{remedy(nil, "NotEqual", "True", "TrafficControl")}},
		{name: "another cluster's remedy", remedies: []*remedyv1alpha1.Remedy{remedy([]string{"member9"}, "", "", "TrafficControl")}},
		{name: "the union, sorted, each once", remedies: []*remedyv1alpha1.Remedy{remedy([]string{"member1"}, "", "", "TrafficControl", "Zeta"),
			remedy(nil, "Equal", "False", "Alpha", "TrafficControl")}, conditions: dnsFalse, want: "Alpha,TrafficControl,Zeta"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: "member1"}, Status: clusterv1alpha1.ClusterStatus{Conditions: tt.conditions}}
			if got := strings.Join(Actions(tt.remedies, c), ","); got != tt.want {
				t.Errorf("Actions = %q, want %q", got, tt.want)
			}
		})
	}
}
