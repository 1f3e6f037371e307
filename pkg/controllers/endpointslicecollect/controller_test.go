package endpointslicecollect

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
)

func work(labels map[string]string, manifest string) *workv1alpha1.Work {
	return &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Namespace: "karmada-es-member3", Name: "w", Labels: labels},
		Spec: workv1alpha1.WorkSpec{Workload: workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: []byte(manifest)}}}}}}
}

func TestWorkServices(t *testing.T) {
	t.Parallel()
	collected, err := mcs.CollectedWork("member3", &discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "backend-x",
		Labels: map[string]string{discoveryv1.LabelServiceName: "backend"}}}, []string{mcs.ByExport})
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		work *workv1alpha1.Work
		want []key
	}{
		{"A ServiceExport applied in the member (Karmada's v1alpha1).",
			work(nil, `{"apiVersion":"multicluster.x-k8s.io/v1alpha1","kind":"ServiceExport","metadata":{"namespace":"shop","name":"backend"}}`),
			[]key{{"shop", "backend"}}},
		{"A MultiClusterService naming the member a provider.",
			work(map[string]string{mcs.ProviderNamespaceLabel: "shop", mcs.ProviderNameLabel: "backend"}, `{"apiVersion":"networking.karmada.io/v1alpha1","kind":"MultiClusterService"}`),
			[]key{{"shop", "backend"}}},
		{"A slice the agent reports.", collected, []key{{"shop", "backend"}}},
		{"Any other Work.", work(nil, `{"apiVersion":"v1","kind":"Service","metadata":{"namespace":"shop","name":"backend"}}`), nil},
		{"A manifest that is not JSON.", work(nil, `{`), nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, workServices(tc.work)); diff != "" {
				t.Errorf("services (-want +got):\n%s", diff)
			}
		})
	}
}
