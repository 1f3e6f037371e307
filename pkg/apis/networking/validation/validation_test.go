/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package validation

import (
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/fielderr"
)

func mcs(change func(*networkingv1alpha1.MultiClusterServiceSpec)) *networkingv1alpha1.MultiClusterService {
	m := &networkingv1alpha1.MultiClusterService{
		ObjectMeta: metav1.ObjectMeta{Name: "backend", Namespace: "shop"},
		Spec: networkingv1alpha1.MultiClusterServiceSpec{
			Types:            []networkingv1alpha1.ExposureType{networkingv1alpha1.ExposureTypeCrossCluster},
			Ports:            []networkingv1alpha1.ExposurePort{{Name: "http", Port: 80}},
			ProviderClusters: []networkingv1alpha1.ClusterSelector{{Name: "member3"}},
			ConsumerClusters: []networkingv1alpha1.ClusterSelector{{Name: "member1"}, {Name: "not-joined-yet"}},
		},
	}
	if change != nil {
		change(&m.Spec)
	}
	return m
}

func TestValidateMultiClusterService(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		mcs  *networkingv1alpha1.MultiClusterService
		want []fielderr.Want
	}{
		{name: "CrossCluster with ports and clusters, one not joined yet, is valid.", mcs: mcs(nil)},
		{name: "LoadBalancer is accepted.", mcs: mcs(func(s *networkingv1alpha1.MultiClusterServiceSpec) {
			s.Types = []networkingv1alpha1.ExposureType{networkingv1alpha1.ExposureTypeLoadBalancer}
		})},
		{name: "Types are required.", mcs: mcs(func(s *networkingv1alpha1.MultiClusterServiceSpec) { s.Types = nil }),
			want: []fielderr.Want{fielderr.Required("spec.types")}},
		{name: "An unknown type, and two types.", mcs: mcs(func(s *networkingv1alpha1.MultiClusterServiceSpec) {
			s.Types = []networkingv1alpha1.ExposureType{"CrossCluster", "Teleport"}
		}), want: []fielderr.Want{fielderr.NotSupported("spec.types[1]"), fielderr.Invalid("spec.types")}},
		{name: "Ports: a number out of range, a bad and a repeated name.", mcs: mcs(func(s *networkingv1alpha1.MultiClusterServiceSpec) {
			s.Ports = []networkingv1alpha1.ExposurePort{{Name: "http", Port: 0}, {Name: "http", Port: 81}, {Name: "Bad_Name", Port: 70000}}
		}), want: []fielderr.Want{fielderr.Invalid("spec.ports[0].port"), fielderr.Duplicate("spec.ports[1].name"),
			fielderr.Invalid("spec.ports[2].name"), fielderr.Invalid("spec.ports[2].port")}},
		{name: "Cluster names must be names.", mcs: mcs(func(s *networkingv1alpha1.MultiClusterServiceSpec) {
			s.ProviderClusters = []networkingv1alpha1.ClusterSelector{{Name: "Member_3"}}
			s.Range.ClusterNames = []string{"-x"}
			s.ServiceConsumptionClusters = []string{""}
		}), want: []fielderr.Want{fielderr.Invalid("spec.providerClusters[0].name"), fielderr.Invalid("spec.range.clusterNames[0]"),
			fielderr.Invalid("spec.serviceConsumptionClusters[0]")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fielderr.Assert(t, ValidateMultiClusterService(tc.mcs), tc.want...)
		})
	}
}

func TestValidateMultiClusterServiceUpdate(t *testing.T) {
	t.Parallel()
	old := mcs(nil)
	changed := mcs(func(s *networkingv1alpha1.MultiClusterServiceSpec) {
		s.Types = []networkingv1alpha1.ExposureType{networkingv1alpha1.ExposureTypeLoadBalancer}
	})
	fielderr.Assert(t, ValidateMultiClusterServiceUpdate(changed, old), fielderr.Invalid("spec.types"))
	fielderr.Assert(t, ValidateMultiClusterServiceUpdate(mcs(func(s *networkingv1alpha1.MultiClusterServiceSpec) { s.Ports = nil }), old))
}

func TestValidateMultiClusterIngress(t *testing.T) {
	t.Parallel()
	valid := &networkingv1alpha1.MultiClusterIngress{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: networkingv1.IngressSpec{DefaultBackend: &networkingv1.IngressBackend{
			Service: &networkingv1.IngressServiceBackend{Name: "web", Port: networkingv1.ServiceBackendPort{Number: 80}}}}}
	fielderr.Assert(t, ValidateMultiClusterIngress(valid))
	empty := valid.DeepCopy()
	empty.Spec.DefaultBackend = nil
	fielderr.Assert(t, ValidateMultiClusterIngress(empty), fielderr.Invalid("spec"))
}
