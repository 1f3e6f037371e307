package binding

import (
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// keptOnEviction lists the clusters of eviction tasks whose copy stays
// until the task is done: every purge mode but Directly (and its old
// spelling Immediately), which withdraws the copy at once.
func keptOnEviction(tasks []workv1alpha2.GracefulEvictionTask) []string {
	var out []string
	for _, t := range tasks {
		if t.PurgeMode == policyv1alpha1.PurgeModeDirectly || t.PurgeMode == policyv1alpha1.Immediately {
			continue
		}
		out = append(out, t.FromCluster)
	}
	return out
}
