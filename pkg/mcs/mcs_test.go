package mcs

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
)

func TestClusters(t *testing.T) {
	t.Parallel()
	joined := []string{"member1", "member2", "member3"}
	sel := func(names ...string) []networkingv1alpha1.ClusterSelector {
		var out []networkingv1alpha1.ClusterSelector
		for _, n := range names {
			out = append(out, networkingv1alpha1.ClusterSelector{Name: n})
		}
		return out
	}
	cases := []struct {
		name                          string
		spec                          networkingv1alpha1.MultiClusterServiceSpec
		providers, consumers, unknown []string
	}{
		{name: "Empty sides mean every joined cluster.", providers: joined, consumers: joined},
		{name: "Named sides.", spec: networkingv1alpha1.MultiClusterServiceSpec{ProviderClusters: sel("member3"), ConsumerClusters: sel("member1")},
			providers: []string{"member3"}, consumers: []string{"member1"}},
		{name: "The deprecated fields add to them.", spec: networkingv1alpha1.MultiClusterServiceSpec{
			ProviderClusters: sel("member3"), ServiceProvisionClusters: []string{"member2"},
			ServiceConsumptionClusters: []string{"member1"}, Range: networkingv1alpha1.ExposureRange{ClusterNames: []string{"member2"}}},
			providers: []string{"member2", "member3"}, consumers: []string{"member1", "member2"}},
		{name: "A cluster that has not joined is left out and reported.", spec: networkingv1alpha1.MultiClusterServiceSpec{
			ProviderClusters: sel("member3", "member9"), ConsumerClusters: sel("member8")},
			providers: []string{"member3"}, consumers: nil, unknown: []string{"member8", "member9"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			p, c, u := Clusters(&tc.spec, joined)
			if diff := cmp.Diff([][]string{tc.providers, tc.consumers, tc.unknown}, [][]string{p, c, u}, cmp.Transformer("nilEmpty", func(s []string) []string {
				if len(s) == 0 {
					return nil
				}
				return s
			})); diff != "" {
				t.Errorf("providers, consumers, unknown (-want +got):\n%s", diff)
			}
		})
	}
}

func memberSlice(managedBy string) *discoveryv1.EndpointSlice {
	return &discoveryv1.EndpointSlice{
		ObjectMeta: metav1.ObjectMeta{Name: "backend-x7k2p", Namespace: "shop", UID: "u1", ResourceVersion: "42",
			Labels:          map[string]string{discoveryv1.LabelServiceName: "backend", discoveryv1.LabelManagedBy: managedBy, "extra": "x"},
			OwnerReferences: []metav1.OwnerReference{{Kind: "Service", Name: "backend"}}},
		AddressType: discoveryv1.AddressTypeIPv4,
		Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.3.7"}, Conditions: discoveryv1.EndpointConditions{Ready: ptr.To(true)}}},
		Ports: []discoveryv1.EndpointPort{{Name: ptr.To("http"), Port: ptr.To[int32](8080)},
			{Name: ptr.To("metrics"), Port: ptr.To[int32](9090)}},
	}
}

func TestOwn(t *testing.T) {
	t.Parallel()
	for managedBy, want := range map[string]bool{"endpointslice-controller.k8s.io": true, ManagedByDispatch: false, ManagedByImport: false} {
		if got := Own(memberSlice(managedBy)); got != want {
			t.Errorf("Own(managed by %s) = %v, want %v", managedBy, got, want)
		}
	}
	unlabelled := memberSlice("endpointslice-controller.k8s.io")
	delete(unlabelled.Labels, discoveryv1.LabelServiceName)
	if Own(unlabelled) {
		t.Error("a slice of no Service is collected")
	}
}

func TestDispatched(t *testing.T) {
	t.Parallel()
	got := Dispatched("member3", memberSlice("endpointslice-controller.k8s.io"), []networkingv1alpha1.ExposurePort{{Name: "http", Port: 80}})
	if got.Name != "member3-backend-x7k2p" || got.Namespace != "shop" || got.UID != "" || got.ResourceVersion != "" || len(got.OwnerReferences) != 0 {
		t.Errorf("identity %+v", got.ObjectMeta)
	}
	if diff := cmp.Diff(map[string]string{discoveryv1.LabelServiceName: "backend", discoveryv1.LabelManagedBy: ManagedByDispatch}, got.Labels); diff != "" {
		t.Errorf("labels (-want +got):\n%s", diff)
	}
	if got.Annotations[ProvisionClusterAnnotation] != "member3" || len(got.Ports) != 1 || *got.Ports[0].Name != "http" ||
		got.Endpoints[0].Addresses[0] != "10.0.3.7" || got.AddressType != discoveryv1.AddressTypeIPv4 {
		t.Errorf("dispatched %+v", got)
	}
	if all := Dispatched("member3", memberSlice("x"), nil); len(all.Ports) != 2 {
		t.Errorf("no exposed ports listed: %d ports kept, want all 2", len(all.Ports))
	}
}

func TestImported(t *testing.T) {
	t.Parallel()
	got := Imported("member3", memberSlice("endpointslice-controller.k8s.io"))
	if got.Name != "imported-member3-backend-x7k2p" || got.Labels[discoveryv1.LabelServiceName] != "derived-backend" ||
		got.Labels[discoveryv1.LabelManagedBy] != ManagedByImport || len(got.Ports) != 2 {
		t.Errorf("imported %+v", got)
	}
}

func TestLongNamesAreCut(t *testing.T) {
	t.Parallel()
	src := memberSlice("x")
	src.Name = strings.Repeat("a", 250)
	got := Dispatched("member3", src, nil).Name
	if len(got) != 253 || got == Dispatched("member4", src, nil).Name {
		t.Errorf("name %q (%d chars)", got, len(got))
	}
}

func TestCrossCluster(t *testing.T) {
	t.Parallel()
	for types, want := range map[networkingv1alpha1.ExposureType]bool{networkingv1alpha1.ExposureTypeCrossCluster: true, networkingv1alpha1.ExposureTypeLoadBalancer: false} {
		spec := networkingv1alpha1.MultiClusterServiceSpec{Types: []networkingv1alpha1.ExposureType{types}}
		if got := CrossCluster(&spec); got != want {
			t.Errorf("CrossCluster(%s) = %v", types, got)
		}
	}
}
