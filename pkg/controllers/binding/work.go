package binding

import (
	"encoding/json"
	"fmt"
	"sort"

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

// appliedAnnotations are the annotations of a Work the binding controller
// owns: a Work loses them when no override applies any more.
var appliedAnnotations = []string{AppliedOverridesAnnotation, AppliedClusterOverridesAnnotation, PreservedLabelsAnnotation}
