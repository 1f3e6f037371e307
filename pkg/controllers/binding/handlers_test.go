package binding

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
)

func TestOwnerOf(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name        string
		annotations map[string]string
		want        binding.Key
		wantOK      bool
	}{
		{
			name: "A Work of a ResourceBinding names its namespace and name.",
			annotations: map[string]string{
				workv1alpha2.ResourceBindingNamespaceAnnotationKey: "shop",
				workv1alpha2.ResourceBindingNameAnnotationKey:      "web-deployment",
			},
			want: binding.Key{Namespace: "shop", Name: "web-deployment"}, wantOK: true,
		},
		{
			name:        "A Work of a ClusterResourceBinding names it.",
			annotations: map[string]string{workv1alpha2.ClusterResourceBindingAnnotationKey: "shop-namespace"},
			want:        binding.Key{Name: "shop-namespace"}, wantOK: true,
		},
		{
			name: "The ClusterResourceBinding annotation wins over ResourceBinding annotations.",
			annotations: map[string]string{
				workv1alpha2.ClusterResourceBindingAnnotationKey:   "shop-namespace",
				workv1alpha2.ResourceBindingNamespaceAnnotationKey: "shop",
				workv1alpha2.ResourceBindingNameAnnotationKey:      "web-deployment",
			},
			want: binding.Key{Name: "shop-namespace"}, wantOK: true,
		},
		{name: "A Work without binding annotations has no owner."},
		{
			name:        "A ResourceBinding name without its namespace is no owner.",
			annotations: map[string]string{workv1alpha2.ResourceBindingNameAnnotationKey: "web-deployment"},
			want:        binding.Key{Name: "web-deployment"},
		},
		{
			name:        "A ResourceBinding namespace without its name is no owner.",
			annotations: map[string]string{workv1alpha2.ResourceBindingNamespaceAnnotationKey: "shop"},
			want:        binding.Key{Namespace: "shop"},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			w := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Namespace: "karmada-es-m1", Name: "w", Annotations: tc.annotations}}
			got, ok := OwnerOf(w)
			if ok != tc.wantOK {
				t.Fatalf("OwnerOf ok = %v, want %v", ok, tc.wantOK)
			}
			if ok && got != tc.want {
				t.Errorf("OwnerOf = %+v, want %+v", got, tc.want)
			}
		})
	}
}

func TestOwnerOfWorkFromDesiredWork(t *testing.T) {
	t.Parallel()
	for _, v := range []*binding.View{rbView(workv1alpha2.ResourceBindingSpec{}), crbView(workv1alpha2.ResourceBindingSpec{})} {
		t.Run(v.Key.String()+" is the owner of the Work written for it.", func(t *testing.T) {
			t.Parallel()
			w, err := desiredWork(v, webManifest(), "m1", nil)
			if err != nil {
				t.Fatal(err)
			}
			if got, ok := OwnerOf(w); !ok || got != v.Key {
				t.Errorf("OwnerOf = %+v, %v; want %+v", got, ok, v.Key)
			}
		})
	}
}

func TestSamePhases(t *testing.T) {
	t.Parallel()
	c := func(name, phase string) addonsv1alpha1.AddonClusterStatus {
		return addonsv1alpha1.AddonClusterStatus{Name: name, Phase: addonsv1alpha1.AddonPhase(phase), Message: "any " + phase}
	}
	tests := []struct {
		name string
		a, b []addonsv1alpha1.AddonClusterStatus
		want bool
	}{
		{"messages apart, the same phases", []addonsv1alpha1.AddonClusterStatus{c("m1", "Installing")},
			[]addonsv1alpha1.AddonClusterStatus{{Name: "m1", Phase: "Installing", Message: "other"}}, true},
		{"in another order", []addonsv1alpha1.AddonClusterStatus{c("m1", "Healthy"), c("m2", "Failed")},
			[]addonsv1alpha1.AddonClusterStatus{c("m2", "Failed"), c("m1", "Healthy")}, true},
		{"a phase changed", []addonsv1alpha1.AddonClusterStatus{c("m1", "Installing")}, []addonsv1alpha1.AddonClusterStatus{c("m1", "Healthy")}, false},
		{"a cluster more", []addonsv1alpha1.AddonClusterStatus{c("m1", "Healthy")}, []addonsv1alpha1.AddonClusterStatus{c("m1", "Healthy"), c("m2", "")}, false},
		{"another cluster", []addonsv1alpha1.AddonClusterStatus{c("m1", "Healthy")}, []addonsv1alpha1.AddonClusterStatus{c("m2", "Healthy")}, false},
	}
	for _, tt := range tests {
		if got := samePhases(tt.a, tt.b); got != tt.want {
			t.Errorf("%s: samePhases = %v, want %v", tt.name, got, tt.want)
		}
	}
}
