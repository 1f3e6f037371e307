package mcs

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func TestClaimAndRelease(t *testing.T) {
	t.Parallel()
	svc := &networkingv1alpha1.MultiClusterService{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "backend", UID: "mcs-uid"}}
	claimed := metav1.ObjectMeta{
		Labels: map[string]string{"app": "backend", networkingv1alpha1.ResourceTemplateClaimedByLabel: "MultiClusterService",
			networkingv1alpha1.MultiClusterServicePermanentIDLabel: "mcs-uid"},
		Annotations: map[string]string{networkingv1alpha1.MultiClusterServiceNameAnnotation: "backend",
			networkingv1alpha1.MultiClusterServiceNamespaceAnnotation: "shop"},
	}
	cases := []struct {
		name        string
		have        metav1.ObjectMeta
		want        metav1.ObjectMeta
		wantChanged bool
	}{
		{
			name: "A policy's claim gives way to the MultiClusterService's.",
			have: metav1.ObjectMeta{
				Labels:      map[string]string{"app": "backend", policyv1alpha1.PropagationPolicyPermanentIDLabel: "pp-id"},
				Annotations: map[string]string{policyv1alpha1.PropagationPolicyNameAnnotation: "pp", policyv1alpha1.PropagationPolicyNamespaceAnnotation: "shop"},
			},
			want: claimed, wantChanged: true,
		},
		{name: "Claiming again changes nothing.", have: claimed, want: claimed},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := tc.have.DeepCopy()
			if changed := ClaimService(got, svc); changed != tc.wantChanged {
				t.Errorf("ClaimService changed = %v, want %v", changed, tc.wantChanged)
			}
			if diff := cmp.Diff(tc.want, *got); diff != "" {
				t.Errorf("claimed (-want +got):\n%s", diff)
			}
			if ns, name := ClaimedBy(got); ns != "shop" || name != "backend" {
				t.Errorf("ClaimedBy = %s/%s", ns, name)
			}
			if !Release(got) || Release(got) {
				t.Errorf("Release should change once")
			}
			if diff := cmp.Diff(metav1.ObjectMeta{Labels: map[string]string{"app": "backend"}}, *got); diff != "" {
				t.Errorf("released (-want +got):\n%s", diff)
			}
		})
	}
}

func TestClaimBindingKeepsOtherManagers(t *testing.T) {
	t.Parallel()
	svc := &networkingv1alpha1.MultiClusterService{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "backend",
		Labels: map[string]string{networkingv1alpha1.MultiClusterServicePermanentIDLabel: "kept-id"}}}
	m := &metav1.ObjectMeta{}
	ClaimBinding(m, svc)
	want := map[string]string{"binding.karmada.io/managed-by": "MultiClusterService", networkingv1alpha1.MultiClusterServicePermanentIDLabel: "kept-id"}
	if diff := cmp.Diff(want, m.Labels); diff != "" {
		t.Errorf("binding labels (-want +got):\n%s", diff)
	}
	other := &metav1.ObjectMeta{Labels: map[string]string{"binding.karmada.io/managed-by": "SomethingElse"}}
	if Release(other) {
		t.Errorf("Release took another manager's label")
	}
}

func TestServicePlacement(t *testing.T) {
	t.Parallel()
	sel := func(n string) []networkingv1alpha1.ClusterSelector {
		return []networkingv1alpha1.ClusterSelector{{Name: n}}
	}
	cases := []struct {
		name string
		spec networkingv1alpha1.MultiClusterServiceSpec
		want []string // nil: every cluster
	}{
		{name: "Both sides named: their union.", spec: networkingv1alpha1.MultiClusterServiceSpec{
			ProviderClusters: sel("member3"), ConsumerClusters: sel("member1"), ServiceConsumptionClusters: []string{"member2"}},
			want: []string{"member1", "member2", "member3"}},
		{name: "An empty consumer side: every cluster.", spec: networkingv1alpha1.MultiClusterServiceSpec{ProviderClusters: sel("member3")}},
		{name: "Nothing named: every cluster."},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p := ServicePlacement(&tc.spec)
			var got []string
			if p.ClusterAffinity != nil {
				got = p.ClusterAffinity.ClusterNames
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("cluster names (-want +got):\n%s", diff)
			}
			if len(p.ClusterTolerations) != 2 {
				t.Errorf("a failed cluster should keep the Service: tolerations %v", p.ClusterTolerations)
			}
		})
	}
}
