package namespacesync

import (
	"encoding/json"
	"fmt"
	"sort"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
)

// WorkLabel marks the Works of this controller with the namespace they
// carry. Karmada ties these Works to the namespace with an owner reference
// and lets the garbage collector remove them; mco has no garbage collector,
// so it lists them by this label instead.
const WorkLabel = "namespace.mco-org.github.io/name"

// droppedLabels and droppedAnnotations are set on the namespace by servers
// or clients and are not part of what the member should receive.
var (
	droppedLabels      = []string{corev1.LabelMetadataName}
	droppedAnnotations = []string{corev1.LastAppliedConfigAnnotation}
)

// DesiredWork is the Work carrying namespace ns to cluster: a Namespace
// manifest with the name, labels and annotations ns has on mco.
func DesiredWork(ns *corev1.Namespace, cluster string) (*workv1alpha1.Work, error) {
	meta := map[string]any{"name": ns.Name}
	if l := without(ns.Labels, droppedLabels); len(l) > 0 {
		meta["labels"] = l
	}
	if a := without(ns.Annotations, droppedAnnotations); len(a) > 0 {
		meta["annotations"] = a
	}
	raw, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": meta})
	if err != nil {
		return nil, fmt.Errorf("encode namespace %s: %w", ns.Name, err)
	}
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: names.ExecutionSpace(cluster),
			Name:      names.Work("Namespace", ns.Name, ""),
			Labels:    map[string]string{WorkLabel: ns.Name},
		},
		Spec: workv1alpha1.WorkSpec{
			Workload: workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: raw}}}},
		},
	}, nil
}

func without(m map[string]string, keys []string) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, k := range keys {
		delete(out, k)
	}
	return out
}

// plan compares the Works namespace ns should have with those it has
// (listed by WorkLabel): one per cluster not being deleted while the
// namespace propagates, none otherwise. It returns the Works to create or
// update, sorted by cluster, and those to delete.
//
// A namespace terminating on mco keeps its Works as they are until it is
// gone, as in Karmada: the members' copies must outlive the withdrawal of
// the namespace's content, or that content is applied into namespaces
// being terminated.
func plan(ns *corev1.Namespace, propagate bool, clusters []*clusterv1alpha1.Cluster, have []*workv1alpha1.Work) (want, stale []*workv1alpha1.Work, err error) {
	if ns != nil && ns.DeletionTimestamp != nil {
		return nil, nil, nil
	}
	keep := map[string]bool{}
	if propagate {
		sorted := append([]*clusterv1alpha1.Cluster(nil), clusters...)
		sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
		for _, c := range sorted {
			if c.DeletionTimestamp != nil {
				continue // the cluster controller removes its execution space
			}
			w, err := DesiredWork(ns, c.Name)
			if err != nil {
				return nil, nil, err
			}
			want = append(want, w)
			keep[w.Namespace+"/"+w.Name] = true
		}
	}
	for _, w := range have {
		if w.DeletionTimestamp == nil && !keep[w.Namespace+"/"+w.Name] {
			stale = append(stale, w)
		}
	}
	return want, stale, nil
}
