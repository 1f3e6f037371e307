package workstatus

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestCarries(t *testing.T) {
	webApp := schema.GroupVersionKind{Group: "demo.example.com", Version: "v1", Kind: "WebApp"}
	work := func(manifests ...string) *workv1alpha1.Work {
		w := &workv1alpha1.Work{}
		for _, m := range manifests {
			w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests, workv1alpha1.Manifest{RawExtension: runtime.RawExtension{Raw: []byte(m)}})
		}
		return w
	}
	for _, tc := range []struct {
		name string
		work *workv1alpha1.Work
		want bool
	}{
		{"the kind", work(`{"apiVersion":"demo.example.com/v1","kind":"WebApp","metadata":{"name":"a"}}`), true},
		{"another version", work(`{"apiVersion":"demo.example.com/v2","kind":"WebApp"}`), false},
		{"another kind", work(`{"apiVersion":"apps/v1","kind":"Deployment"}`), false},
		{"among several", work(`{"apiVersion":"v1","kind":"ConfigMap"}`, `{"apiVersion":"demo.example.com/v1","kind":"WebApp"}`), true},
		{"no manifests", work(), false},
		{"unreadable", work(`{"apiVersion":`), true},
	} {
		if got := carries(tc.work, webApp); got != tc.want {
			t.Errorf("%s: carries = %v, want %v", tc.name, got, tc.want)
		}
	}
}
