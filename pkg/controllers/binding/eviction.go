package binding

import (
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// keptOnEviction lists the clusters of eviction tasks whose copy stays
// until the task is done: every purge mode but Directly, which withdraws
// the copy at once.
func keptOnEviction(tasks []workv1alpha2.GracefulEvictionTask) []string {
	var out []string
	for _, t := range tasks {
		if t.PurgeMode == policyv1alpha1.PurgeModeDirectly {
			continue
		}
		out = append(out, t.FromCluster)
	}
	return out
}

// addPreservedLabels puts on the manifest for cluster the state that
// failover preserved from the clusters it left (statePreservation), as
// labels, so the workload can resume where it was: only on a cluster new
// after that failover (not among the task's clustersBeforeFailover).
func addPreservedLabels(manifest *unstructured.Unstructured, tasks []workv1alpha2.GracefulEvictionTask, cluster string) {
	for _, t := range tasks {
		if t.FromCluster == cluster || len(t.PreservedLabelState) == 0 || slices.Contains(t.ClustersBeforeFailover, cluster) {
			continue
		}
		labels := manifest.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		for k, v := range t.PreservedLabelState {
			labels[k] = v
		}
		manifest.SetLabels(labels)
	}
}
