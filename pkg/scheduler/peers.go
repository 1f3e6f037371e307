package scheduler

import (
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/client-go/tools/cache"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// byWorkloadGroup indexes ResourceBindings by their workload affinity and
// anti-affinity groups, within their namespace.
const byWorkloadGroup = "workloadGroup"

func groupKey(namespace, group string, anti bool) string {
	kind := "affinity"
	if anti {
		kind = "anti"
	}
	return kind + "/" + namespace + "/" + group
}

// indexWorkloadGroups adds the index workloadPeers reads.
func indexWorkloadGroups(inf cache.SharedIndexInformer) error {
	return inf.AddIndexers(cache.Indexers{byWorkloadGroup: func(obj any) ([]string, error) {
		rb, ok := obj.(*workv1alpha2.ResourceBinding)
		if !ok || rb.Spec.WorkloadAffinityGroups == nil {
			return nil, nil
		}
		var keys []string
		if g := rb.Spec.WorkloadAffinityGroups.AffinityGroup; g != "" {
			keys = append(keys, groupKey(rb.Namespace, g, false))
		}
		if g := rb.Spec.WorkloadAffinityGroups.AntiAffinityGroup; g != "" {
			keys = append(keys, groupKey(rb.Namespace, g, true))
		}
		return keys, nil
	}})
}

// workloadPeers answers the WorkloadAffinity filter from the
// ResourceBinding cache.
type workloadPeers struct {
	indexer cache.Indexer
}

// Placed lists the clusters of each scheduled peer of the group.
func (p workloadPeers) Placed(namespace, group string, anti bool, self workv1alpha2.ObjectReference) []sets.Set[string] {
	objs, err := p.indexer.ByIndex(byWorkloadGroup, groupKey(namespace, group, anti))
	if err != nil {
		return nil
	}
	var out []sets.Set[string]
	for _, o := range objs {
		rb := o.(*workv1alpha2.ResourceBinding)
		if len(rb.Spec.Clusters) == 0 || (rb.Spec.Resource.Kind == self.Kind && rb.Spec.Resource.Name == self.Name) {
			continue
		}
		placed := sets.New[string]()
		for _, c := range rb.Spec.Clusters {
			placed.Insert(c.Name)
		}
		out = append(out, placed)
	}
	return out
}
