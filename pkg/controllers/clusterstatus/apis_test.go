package clusterstatus

import (
	"fmt"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func crdWork(status string) *workv1alpha1.Work {
	crd := `{"apiVersion":"apiextensions.k8s.io/v1","kind":"CustomResourceDefinition","metadata":{"name":"widgets.example.com"},
"spec":{"group":"example.com","names":{"kind":"Widget","plural":"widgets"},"scope":"Namespaced",
"versions":[{"name":"v1","served":true,"storage":true},{"name":"v1beta1","served":true},{"name":"v0","served":false}]}}`
	w := &workv1alpha1.Work{}
	w.Spec.Workload.Manifests = []workv1alpha1.Manifest{
		{RawExtension: runtime.RawExtension{Raw: []byte(`{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":"c"}}`)}},
		{RawExtension: runtime.RawExtension{Raw: []byte(crd)}},
	}
	if status != "" {
		w.Status.ManifestStatuses = []workv1alpha1.ManifestStatus{{
			Identifier: workv1alpha1.ResourceIdentifier{Ordinal: 1, Group: "apiextensions.k8s.io", Version: "v1", Kind: "CustomResourceDefinition"},
			Status:     &runtime.RawExtension{Raw: []byte(fmt.Sprintf(`{"conditions":[{"type":"Established","status":%q}]}`, status))},
		}}
	}
	return w
}

func TestEstablishedKinds(t *testing.T) {
	t.Parallel()
	widget := func(v string) schema.GroupVersionKind {
		return schema.GroupVersionKind{Group: "example.com", Version: v, Kind: "Widget"}
	}
	if got := establishedKinds(crdWork("True")); len(got) != 2 || got[0] != widget("v1") || got[1] != widget("v1beta1") {
		t.Errorf("established CRD: %v, want its two served versions", got)
	}
	for _, s := range []string{"False", ""} {
		if got := establishedKinds(crdWork(s)); len(got) != 0 {
			t.Errorf("CRD with Established %q: %v, want none", s, got)
		}
	}
	listed := []clusterv1alpha1.APIEnablement{{GroupVersion: "example.com/v1", Resources: []clusterv1alpha1.APIResource{{Name: "widgets", Kind: "Widget"}}}}
	if got := unlisted(listed, []schema.GroupVersionKind{widget("v1"), widget("v1beta1")}); len(got) != 1 || got[0] != widget("v1beta1") {
		t.Errorf("unlisted %v, want v1beta1 only", got)
	}
}
