package detector

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestWorkloadGroups(t *testing.T) {
	t.Parallel()
	tmpl := webTemplate()
	tmpl.SetLabels(map[string]string{"app": "shop", "tier": "front"})
	both := &policyv1alpha1.WorkloadAffinity{Affinity: &policyv1alpha1.WorkloadAffinityTerm{GroupByLabelKey: "app"},
		AntiAffinity: &policyv1alpha1.WorkloadAntiAffinityTerm{GroupByLabelKey: "tier"}}
	tests := []struct {
		name string
		obj  func() *unstructured.Unstructured
		wa   *policyv1alpha1.WorkloadAffinity
		want *workv1alpha2.WorkloadAffinityGroups
	}{
		{name: "no workload affinity", obj: tmpl.DeepCopy},
		{name: "groups from the template's labels", obj: tmpl.DeepCopy, wa: both,
			want: &workv1alpha2.WorkloadAffinityGroups{AffinityGroup: "app=shop", AntiAffinityGroup: "tier=front"}},
		{name: "a label the template lacks gives no group", obj: tmpl.DeepCopy,
			wa: &policyv1alpha1.WorkloadAffinity{Affinity: &policyv1alpha1.WorkloadAffinityTerm{GroupByLabelKey: "team"}}},
		{name: "a cluster-scoped template has none", obj: func() *unstructured.Unstructured { u := tmpl.DeepCopy(); u.SetNamespace(""); return u }, wa: both},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := workloadGroups(tt.obj(), tt.wa); !cmp.Equal(got, tt.want) {
				t.Errorf("workloadGroups = %+v, want %+v", got, tt.want)
			}
		})
	}
}
