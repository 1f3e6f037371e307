package validation

import (
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
)

func TestValidateRemedy(t *testing.T) {
	t.Parallel()
	match := func(typ, op, status string) remedyv1alpha1.DecisionMatch {
		return remedyv1alpha1.DecisionMatch{ClusterConditionMatch: &remedyv1alpha1.ClusterConditionRequirement{
			ConditionType: remedyv1alpha1.ConditionType(typ), Operator: remedyv1alpha1.ClusterConditionOperator(op), ConditionStatus: status}}
	}
	tests := []struct {
		name string
		spec remedyv1alpha1.RemedySpec
		want []string // field paths, in order
	}{
		{name: "every cluster, always", spec: remedyv1alpha1.RemedySpec{Actions: []remedyv1alpha1.RemedyAction{remedyv1alpha1.TrafficControl}}},
		{name: "a complete match", spec: remedyv1alpha1.RemedySpec{DecisionMatches: []remedyv1alpha1.DecisionMatch{match("ServiceDomainNameResolutionReady", "Equal", "False")}}},
		{name: "an unknown operator and a missing status", spec: remedyv1alpha1.RemedySpec{DecisionMatches: []remedyv1alpha1.DecisionMatch{match("Ready", "Above", "")}},
			want: []string{"spec.decisionMatches[0].clusterConditionMatch.operator", "spec.decisionMatches[0].clusterConditionMatch.conditionStatus"}},
		{name: "a missing type and operator", spec: remedyv1alpha1.RemedySpec{DecisionMatches: []remedyv1alpha1.DecisionMatch{match("", "", "True")}},
			want: []string{"spec.decisionMatches[0].clusterConditionMatch.conditionType", "spec.decisionMatches[0].clusterConditionMatch.operator"}},
		{name: "a cluster name that is no name", spec: remedyv1alpha1.RemedySpec{ClusterAffinity: &remedyv1alpha1.ClusterAffinity{ClusterNames: []string{"member1", "Member_2"}}},
			want: []string{"spec.clusterAffinity.clusterNames[1]"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			errs := ValidateRemedy(&remedyv1alpha1.Remedy{ObjectMeta: metav1.ObjectMeta{Name: "r"}, Spec: tt.spec})
			var got []string
			for _, e := range errs {
				got = append(got, e.Field)
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Errorf("errors on %v, want %v (%v)", got, tt.want, errs)
			}
		})
	}
}
