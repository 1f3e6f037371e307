package detector

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// workloadGroups are a ResourceBinding's workload affinity groups: for
// each term, "key=value" of the template's label named by
// groupByLabelKey, none when the template lacks it (Karmada's rule); a
// ClusterResourceBinding has none.
func workloadGroups(obj *unstructured.Unstructured, wa *policyv1alpha1.WorkloadAffinity) *workv1alpha2.WorkloadAffinityGroups {
	if wa == nil || obj.GetNamespace() == "" {
		return nil
	}
	group := func(key string) string {
		if v, ok := obj.GetLabels()[key]; ok && key != "" {
			return key + "=" + v
		}
		return ""
	}
	g := &workv1alpha2.WorkloadAffinityGroups{}
	if wa.Affinity != nil {
		g.AffinityGroup = group(wa.Affinity.GroupByLabelKey)
	}
	if wa.AntiAffinity != nil {
		g.AntiAffinityGroup = group(wa.AntiAffinity.GroupByLabelKey)
	}
	if g.AffinityGroup == "" && g.AntiAffinityGroup == "" {
		return nil
	}
	return g
}
