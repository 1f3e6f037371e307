package binding

import (
	"sort"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Targets are the clusters a binding's template goes to: those the
// scheduler chose, and those of every binding that requires it (a
// dependency goes wherever one of its dependents goes). Replicas come from
// the scheduler's choice; a cluster only required carries none.
func Targets(spec *workv1alpha2.ResourceBindingSpec) []workv1alpha2.TargetCluster {
	seen := map[string]bool{}
	out := make([]workv1alpha2.TargetCluster, 0, len(spec.Clusters))
	for _, c := range spec.Clusters {
		if !seen[c.Name] {
			seen[c.Name] = true
			out = append(out, c)
		}
	}
	var extra []string
	for _, r := range spec.RequiredBy {
		for _, c := range r.Clusters {
			if !seen[c.Name] {
				seen[c.Name] = true
				extra = append(extra, c.Name)
			}
		}
	}
	sort.Strings(extra)
	for _, name := range extra {
		out = append(out, workv1alpha2.TargetCluster{Name: name})
	}
	return out
}
