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

package framework_test

import (
	"fmt"
	"slices"
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestCycleStateStoresValuesByKey(t *testing.T) {
	t.Parallel()
	s := framework.NewCycleState()
	if _, ok := s.Read("k"); ok {
		t.Fatal("an empty state should have no value")
	}
	s.Write("k", 1)
	s.Write("other", 2)
	s.Write("k", 3)
	if v, ok := s.Read("k"); !ok || v != 3 {
		t.Errorf("Read(k) = %v, %v; want the latest value 3", v, ok)
	}
	if v, _ := s.Read("other"); v != 2 {
		t.Errorf("Read(other) = %v, want 2", v)
	}
}

func TestCycleStateClusterAffinity(t *testing.T) {
	t.Parallel()
	s := framework.NewCycleState()
	if _, ok := s.ClusterAffinity(); ok {
		t.Error("a fresh state should have no affinity set")
	}
	s.SetClusterAffinity(nil)
	if a, ok := s.ClusterAffinity(); !ok || a != nil {
		t.Errorf("after setting nil: %v, %v; want nil, true", a, ok)
	}
	want := &policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}}
	s.SetClusterAffinity(want)
	if a, _ := s.ClusterAffinity(); a != want {
		t.Errorf("ClusterAffinity() = %v, want the affinity set", a)
	}
}

func TestScheduledClusters(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, 3, 20} {
		t.Run(fmt.Sprintf("A previous result of %d clusters is indexed by name.", n), func(t *testing.T) {
			t.Parallel()
			b := builders.NewBinding("b")
			for i := range n {
				b.ScheduledTo(fmt.Sprintf("m%d", i), 1)
			}
			binding := b.Build()
			set := framework.NewCycleState().ScheduledClusters(&binding.Spec)
			if set.Len() != n {
				t.Errorf("Len() = %d, want %d", set.Len(), n)
			}
			for i := range n {
				if !set.Has(fmt.Sprintf("m%d", i)) {
					t.Errorf("m%d missing", i)
				}
			}
			if set.Has("elsewhere") {
				t.Error("Has(elsewhere) = true")
			}
		})
	}
}

func TestNilNameSetIsEmpty(t *testing.T) {
	t.Parallel()
	var s *framework.NameSet
	if s.Has("x") || s.Len() != 0 {
		t.Error("a nil NameSet should be empty")
	}
}

func TestClusterZones(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		builder *builders.ClusterBuilder
		want    []string
	}{
		{name: "Zones are taken from spec.zones.", builder: builders.NewCluster("m").WithZones("a", "b"), want: []string{"a", "b"}},
		{name: "The deprecated zone is used when zones is empty.", builder: builders.NewCluster("m").WithDeprecatedZone("old"), want: []string{"old"}},
		{name: "Zones win over the deprecated zone.", builder: builders.NewCluster("m").WithZones("a").WithDeprecatedZone("old"), want: []string{"a"}},
		{name: "A cluster without zones has none.", builder: builders.NewCluster("m"), want: nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := framework.ClusterZones(tt.builder.Build(), nil); !slices.Equal(got, tt.want) {
				t.Errorf("ClusterZones() = %q, want %q", got, tt.want)
			}
		})
	}
}
