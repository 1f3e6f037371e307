package addon

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// Marks on an add-on's Works.
const (
	// PartAnnotation numbers an add-on's Works in a cluster ("1/3").
	PartAnnotation = "addons.mco-org.github.io/part"
	// AddonLabel names the add-on a Work belongs to.
	AddonLabel = "addons.mco-org.github.io/addon"
	// RenderedAnnotation says what a Work's objects were rendered from
	// (revision, chart version and values), so that status judges the
	// Works of what the cluster is given, not those still on their way.
	RenderedAnnotation = "addons.mco-org.github.io/rendered"
	// ResourcePolicyAnnotation with the value "keep" leaves an object in
	// place when its release is uninstalled, or when a new revision no
	// longer renders it (Helm's rule).
	ResourcePolicyAnnotation = "helm.sh/resource-policy"
	// NamespaceAnnotation is the release namespace: a namespaced object the
	// chart renders without a namespace goes there, as helm install puts it.
	NamespaceAnnotation = "addons.mco-org.github.io/release-namespace"
)

// Works builds one cluster's Works of add-on name from base, the Work the
// binding controller writes for a template (name, namespace, labels,
// annotations, finalizers, suspension): one Work per part, the first under
// base's name and the others under base's name and "-2", "-3", ...;
// manifests are the objects as JSON, in the parts' order. Each is marked
// with the add-on and its release namespace; a part to keep preserves its
// objects when the Work is deleted.
func Works(base *workv1alpha1.Work, name, namespace string, manifests [][]byte, parts []Part) []*workv1alpha1.Work {
	out := make([]*workv1alpha1.Work, 0, len(parts))
	for i, p := range parts {
		w := base.DeepCopy()
		if i > 0 {
			w.Name = PartName(base.Name, i+1)
		}
		if w.Annotations == nil {
			w.Annotations = map[string]string{}
		}
		if w.Labels == nil {
			w.Labels = map[string]string{}
		}
		w.Labels[AddonLabel] = name
		w.Annotations[PartAnnotation] = fmt.Sprintf("%d/%d", i+1, len(parts))
		w.Annotations[NamespaceAnnotation] = namespace
		w.Spec.Workload.Manifests = make([]workv1alpha1.Manifest, 0, len(p.Objects))
		for _, j := range p.Objects {
			w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests, workv1alpha1.Manifest{RawExtension: runtime.RawExtension{Raw: manifests[j]}})
		}
		if p.Keep {
			w.Spec.PreserveResourcesOnDeletion = ptr.To(true)
		}
		out = append(out, w)
	}
	return out
}

// PartName is the name of an add-on's n-th Work (n ≥ 2) in a cluster.
func PartName(base string, n int) string { return fmt.Sprintf("%s-%d", base, n) }
