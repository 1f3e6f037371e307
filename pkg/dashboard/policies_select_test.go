package dashboard

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func TestAnySelects(t *testing.T) {
	labels := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "web"}}
	sel := func(kind, ns, name string, ls *metav1.LabelSelector) policyv1alpha1.ResourceSelector {
		return policyv1alpha1.ResourceSelector{APIVersion: "apps/v1", Kind: kind, Namespace: ns, Name: name, LabelSelector: ls}
	}
	tests := []struct {
		name string
		sels []policyv1alpha1.ResourceSelector
		want bool
	}{
		{"by name", []policyv1alpha1.ResourceSelector{sel("Deployment", "", "web", nil)}, true},
		{"a name decides alone: the label selector beside it is ignored, as in Karmada", []policyv1alpha1.ResourceSelector{sel("Deployment", "", "web", labels)}, true},
		{"another name", []policyv1alpha1.ResourceSelector{sel("Deployment", "", "api", nil)}, false},
		{"every Deployment", []policyv1alpha1.ResourceSelector{sel("Deployment", "", "", nil)}, true},
		{"every Deployment of another namespace", []policyv1alpha1.ResourceSelector{sel("Deployment", "other", "", nil)}, false},
		{"another kind", []policyv1alpha1.ResourceSelector{sel("StatefulSet", "", "web", nil)}, false},
		{"labels alone cannot be judged from a binding", []policyv1alpha1.ResourceSelector{sel("Deployment", "", "", labels)}, false},
	}
	for _, tt := range tests {
		if got := anySelects(tt.sels, "apps/v1", "Deployment", "shop", "web"); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestClaimedByKeysByData(t *testing.T) {
	b := func(annotations map[string]string) *Binding {
		x := &Binding{}
		x.Namespace, x.Annotations = "shop", annotations
		return x
	}
	tests := []struct {
		name string
		b    *Binding
		want policyKey
		ok   bool
	}{
		{"a PropagationPolicy of the binding's namespace", b(map[string]string{policyv1alpha1.PropagationPolicyNameAnnotation: "web"}), policyKey{"PropagationPolicy", "shop", "web"}, true},
		{"a ClusterPropagationPolicy", b(map[string]string{policyv1alpha1.ClusterPropagationPolicyAnnotation: "all"}), policyKey{"ClusterPropagationPolicy", "", "all"}, true},
		{"no policy", b(nil), policyKey{}, false},
	}
	for _, tt := range tests {
		got, ok := claimedBy(tt.b)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%s: %+v %v, want %+v %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
