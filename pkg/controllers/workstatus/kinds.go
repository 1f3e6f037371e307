package workstatus

import (
	"encoding/json"

	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// carries tells whether one of a Work's manifests is of kind gvk. A
// manifest that cannot be read counts as carrying it, so that its Work is
// looked at again rather than left out.
func carries(w *workv1alpha1.Work, gvk schema.GroupVersionKind) bool {
	for _, m := range w.Spec.Workload.Manifests {
		var tm struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := json.Unmarshal(m.Raw, &tm); err != nil {
			return true
		}
		if schema.FromAPIVersionAndKind(tm.APIVersion, tm.Kind) == gvk {
			return true
		}
	}
	return false
}
