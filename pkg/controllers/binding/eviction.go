package binding

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
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

// PreservedLabelsAnnotation, on a Work, holds the labels failover
// preserved for its cluster (a JSON object), so that they stay on the
// cluster's copy after the eviction task that carried them is done.
const PreservedLabelsAnnotation = "failover.mco-org.github.io/preserved-labels"

// preservedLabels returns the labels to put on the manifest for cluster:
// the state failover preserved from the clusters it left
// (statePreservation), so the workload can resume where it was, only on a
// cluster new after that failover (not among the task's
// clustersBeforeFailover); once the tasks are done, what existing (the
// cluster's Work, nil when none) remembers of them. Later tasks win.
func preservedLabels(tasks []workv1alpha2.GracefulEvictionTask, cluster string, existing *workv1alpha1.Work) map[string]string {
	out := map[string]string{}
	if existing != nil {
		if raw, ok := existing.Annotations[PreservedLabelsAnnotation]; ok {
			// A malformed value is dropped: the next write corrects it.
			_ = json.Unmarshal([]byte(raw), &out)
		}
	}
	for _, t := range tasks {
		if t.FromCluster == cluster || len(t.PreservedLabelState) == 0 || slices.Contains(t.ClustersBeforeFailover, cluster) {
			continue
		}
		maps.Copy(out, t.PreservedLabelState)
	}
	return out
}

// addPreservedLabels sets labels on manifest.
func addPreservedLabels(manifest *unstructured.Unstructured, labels map[string]string) {
	if len(labels) == 0 {
		return
	}
	all := manifest.GetLabels()
	if all == nil {
		all = map[string]string{}
	}
	maps.Copy(all, labels)
	manifest.SetLabels(all)
}

// rememberPreserved records labels on the Work that carries them.
func rememberPreserved(w *workv1alpha1.Work, labels map[string]string) error {
	if len(labels) == 0 {
		return nil
	}
	raw, err := json.Marshal(labels)
	if err != nil {
		return fmt.Errorf("encode preserved labels: %w", err)
	}
	w.Annotations[PreservedLabelsAnnotation] = string(raw)
	return nil
}
