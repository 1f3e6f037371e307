package addon

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/mco-org/mco/pkg/addon/chart"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// Manifests are one cluster's objects of an add-on as its Works carry
// them, in install order, and which of them stay when the add-on leaves.
type Manifests struct {
	Raw  [][]byte
	Keep []bool
}

// manifestsOf prepares a cluster's rendered objects for its Works: each
// carries marks (the annotations of the Addon's own manifest that the
// execution controller and status read: conflict resolution, the
// Addon's generation, the rollout revision), and namespace, the release
// namespace to create, comes first when the chart does not render it
// itself, kept as helm uninstall keeps it. The namespace and the chart's
// crds/ may exist in the member already (helm install takes them as they
// are): they are taken over whatever the conflict resolution.
func manifestsOf(objects []chart.Object, marks map[string]string, namespace string) (Manifests, error) {
	var out Manifests
	add := func(obj *unstructured.Unstructured, keep bool) error {
		raw, err := json.Marshal(obj.Object)
		if err != nil {
			return fmt.Errorf("encode %s %s: %w", obj.GetKind(), obj.GetName(), err)
		}
		out.Raw, out.Keep = append(out.Raw, raw), append(out.Keep, keep)
		return nil
	}
	if namespace != "" && !renders(objects, "Namespace", namespace) {
		ns := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": namespace}}}
		stampAll(ns, marks)
		stamp(ns, workv1alpha1.ResourceConflictResolutionAnnotation, workv1alpha1.ResourceConflictResolutionOverwrite)
		if err := add(ns, true); err != nil {
			return Manifests{}, err
		}
	}
	for _, o := range objects {
		obj := o.Object.DeepCopy() // the render cache shares its objects
		stampAll(obj, marks)
		if o.CRD {
			// helm install takes the definitions of crds/ that a member
			// has already (a release installed before, kept on uninstall).
			stamp(obj, workv1alpha1.ResourceConflictResolutionAnnotation, workv1alpha1.ResourceConflictResolutionOverwrite)
		}
		if err := add(obj, o.Kept()); err != nil {
			return Manifests{}, err
		}
	}
	return out, nil
}

// renders tells whether the chart renders a cluster-scoped object.
func renders(objects []chart.Object, kind, name string) bool {
	for _, o := range objects {
		if o.Object.GetKind() == kind && o.Object.GetAPIVersion() == "v1" && o.Object.GetName() == name {
			return true
		}
	}
	return false
}

func stampAll(obj *unstructured.Unstructured, marks map[string]string) {
	for k, v := range marks {
		stamp(obj, k, v)
	}
}

func stamp(obj *unstructured.Unstructured, key, value string) {
	a := obj.GetAnnotations()
	if a == nil {
		a = map[string]string{}
	}
	a[key] = value
	obj.SetAnnotations(a)
}

// sizes are the lengths of the manifests.
func (m Manifests) sizes() []int {
	out := make([]int, len(m.Raw))
	for i, r := range m.Raw {
		out[i] = len(r)
	}
	return out
}
