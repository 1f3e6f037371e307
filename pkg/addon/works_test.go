package addon

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestWorks(t *testing.T) {
	base := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Namespace: "karmada-es-member1", Name: "log-collector-addon",
		Labels: map[string]string{"binding-id": "x"}, Finalizers: []string{"f"}}}
	manifests := [][]byte{[]byte(`{"kind":"CustomResourceDefinition"}`), []byte(`{"kind":"ServiceAccount"}`), []byte(`{"kind":"Deployment"}`)}
	works := Works(base, "log-collector", "logging", manifests, []Part{{Objects: []int{0}, Keep: true}, {Objects: []int{1, 2}}})
	if len(works) != 2 {
		t.Fatalf("%d Works, want 2", len(works))
	}
	first, second := works[0], works[1]
	if first.Name != "log-collector-addon" || second.Name != "log-collector-addon-2" {
		t.Errorf("names %s, %s", first.Name, second.Name)
	}
	if first.Annotations[PartAnnotation] != "1/2" || second.Annotations[PartAnnotation] != "2/2" {
		t.Errorf("parts %v %v", first.Annotations, second.Annotations)
	}
	if p := first.Spec.PreserveResourcesOnDeletion; p == nil || !*p || second.Spec.PreserveResourcesOnDeletion != nil {
		t.Errorf("only the kept part preserves its objects")
	}
	if len(second.Spec.Workload.Manifests) != 2 || string(second.Spec.Workload.Manifests[1].Raw) != `{"kind":"Deployment"}` {
		t.Errorf("second part's manifests: %v", second.Spec.Workload.Manifests)
	}
	if second.Labels["binding-id"] != "x" || base.Labels[AddonLabel] != "" || second.Finalizers[0] != "f" || second.Namespace != "karmada-es-member1" {
		t.Errorf("the parts keep base's metadata: %+v", second.ObjectMeta)
	}
	for _, w := range works {
		if w.Labels[AddonLabel] != "log-collector" || w.Annotations[NamespaceAnnotation] != "logging" {
			t.Errorf("%s is not marked with its add-on and release namespace: %v %v", w.Name, w.Labels, w.Annotations)
		}
	}
	if base.Annotations != nil || len(base.Spec.Workload.Manifests) != 0 {
		t.Errorf("base was changed: %+v", base)
	}
}
