package binding

import (
	"encoding/json"
	"fmt"
	"sort"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/overridemanager"
)

// Annotations on a Work naming the override policies applied to its
// manifest, in order (Karmada's keys).
const (
	AppliedOverridesAnnotation        = "policy.karmada.io/applied-overrides"
	AppliedClusterOverridesAnnotation = "policy.karmada.io/applied-cluster-overrides"
)

// appliedOverride is one entry of the applied-overrides annotations, in
// the order the policies were applied.
type appliedOverride struct {
	PolicyName string                    `json:"policyName"`
	Overriders policyv1alpha1.Overriders `json:"overriders"`
}

// desiredWork is the Work carrying a binding's manifest to one cluster.
func desiredWork(b *binding.View, manifest *unstructured.Unstructured, cluster string, applied overridemanager.Applied) (*workv1alpha1.Work, error) {
	raw, err := json.Marshal(manifest.Object)
	if err != nil {
		return nil, fmt.Errorf("encode manifest: %w", err)
	}
	annotations := map[string]string{}
	if b.Key.Namespace == "" {
		annotations[workv1alpha2.ClusterResourceBindingAnnotationKey] = b.Key.Name
	} else {
		annotations[workv1alpha2.ResourceBindingNamespaceAnnotationKey] = b.Key.Namespace
		annotations[workv1alpha2.ResourceBindingNameAnnotationKey] = b.Key.Name
	}
	var cops, ops []appliedOverride
	for _, p := range applied {
		for _, o := range p.Overriders {
			item := appliedOverride{PolicyName: p.Name, Overriders: o}
			if p.IsCluster() {
				cops = append(cops, item)
			} else {
				ops = append(ops, item)
			}
		}
	}
	byName := func(list []appliedOverride) func(i, j int) bool {
		return func(i, j int) bool { return list[i].PolicyName < list[j].PolicyName }
	}
	sort.SliceStable(cops, byName(cops))
	sort.SliceStable(ops, byName(ops))
	for key, list := range map[string][]appliedOverride{AppliedClusterOverridesAnnotation: cops, AppliedOverridesAnnotation: ops} {
		if len(list) == 0 {
			continue
		}
		v, err := json.Marshal(list)
		if err != nil {
			return nil, fmt.Errorf("encode applied overrides: %w", err)
		}
		annotations[key] = string(v)
	}
	w := &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:   names.ExecutionSpace(cluster),
			Name:        names.Work(manifest.GetKind(), manifest.GetName(), manifest.GetNamespace()),
			Labels:      map[string]string{b.Key.PermanentIDLabel(): b.PermanentID()},
			Annotations: annotations,
			// Set here rather than by the execution controller: one write less.
			Finalizers: []string{workv1alpha1.ExecutionControllerFinalizer},
		},
		Spec: workv1alpha1.WorkSpec{
			Workload: workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: raw}}}},
		},
	}
	if suspended(b.Spec, cluster) {
		w.Spec.SuspendDispatching = ptr.To(true)
	}
	if p := b.Spec.PreserveResourcesOnDeletion; p != nil && *p {
		w.Spec.PreserveResourcesOnDeletion = ptr.To(true)
	}
	return w, nil
}

// mergeWork brings an existing Work to the desired one, keeping labels and
// annotations set by others; it reports whether anything changed.
func mergeWork(have, want *workv1alpha1.Work) bool {
	changed := false
	for _, pair := range []struct {
		have *map[string]string
		want map[string]string
		keys []string
	}{
		{&have.Labels, want.Labels, nil},
		{&have.Annotations, want.Annotations, []string{AppliedOverridesAnnotation, AppliedClusterOverridesAnnotation}},
	} {
		if *pair.have == nil {
			*pair.have = map[string]string{}
		}
		for _, k := range pair.keys { // owned keys that may have to go
			if _, ok := pair.want[k]; !ok {
				if _, had := (*pair.have)[k]; had {
					delete(*pair.have, k)
					changed = true
				}
			}
		}
		for k, v := range pair.want {
			if (*pair.have)[k] != v {
				(*pair.have)[k] = v
				changed = true
			}
		}
	}
	if !manifestsEqual(have.Spec.Workload.Manifests, want.Spec.Workload.Manifests) ||
		!apiequality.Semantic.DeepEqual(have.Spec.SuspendDispatching, want.Spec.SuspendDispatching) ||
		!apiequality.Semantic.DeepEqual(have.Spec.PreserveResourcesOnDeletion, want.Spec.PreserveResourcesOnDeletion) {
		have.Spec = want.Spec
		changed = true
	}
	return changed
}

// manifestsEqual compares manifests by content, not by JSON bytes.
func manifestsEqual(a, b []workv1alpha1.Manifest) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		var x, y any
		if json.Unmarshal(a[i].Raw, &x) != nil || json.Unmarshal(b[i].Raw, &y) != nil {
			return false
		}
		if !apiequality.Semantic.DeepEqual(x, y) {
			return false
		}
	}
	return true
}
