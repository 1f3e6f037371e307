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

package placement_test

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/placement"
)

func pp(namespace, name string, priority int32, selectors ...policyv1alpha1.ResourceSelector) placement.Candidate {
	return placement.Candidate{Namespace: namespace, Name: name, Priority: priority, Selectors: selectors}
}

func cpp(name string, priority int32, selectors ...policyv1alpha1.ResourceSelector) placement.Candidate {
	return placement.Candidate{Name: name, Priority: priority, Selectors: selectors, IsCluster: true}
}

func deleting(c placement.Candidate) placement.Candidate {
	c.Deleting = true
	return c
}

func TestBestPolicy(t *testing.T) {
	t.Parallel()
	web := deployment("default", "web", "app", "web")
	tests := []struct {
		name       string
		candidates []placement.Candidate
		want       string // "namespace/name", "name" for a cluster policy, "" for none
	}{
		{name: "No candidate claims nothing."},
		{
			name:       "Policies whose selectors miss claim nothing.",
			candidates: []placement.Candidate{pp("default", "a", 0, named("api")), cpp("b", 0, labelled("app", "api"))},
		},
		{
			name:       "A propagation policy beats a cluster propagation policy of higher priority and more specific selector.",
			candidates: []placement.Candidate{cpp("cluster", 100, named("web")), pp("default", "ns", 0, kind())},
			want:       "default/ns",
		},
		{
			name:       "A propagation policy of another namespace is not eligible.",
			candidates: []placement.Candidate{pp("prod", "ns", 0, kind()), cpp("cluster", 0, kind())},
			want:       "cluster",
		},
		{
			name:       "A higher explicit priority beats a more specific selector.",
			candidates: []placement.Candidate{pp("default", "by-name", 0, named("web")), pp("default", "by-kind", 1, kind())},
			want:       "default/by-kind",
		},
		{
			name: "At equal priority, name beats label selector beats kind.",
			candidates: []placement.Candidate{
				pp("default", "a-kind", 0, kind()), pp("default", "b-label", 0, labelled("app", "web")), pp("default", "c-name", 0, named("web")),
			},
			want: "default/c-name",
		},
		{
			name:       "At equal priority, a label selector beats kind only.",
			candidates: []placement.Candidate{pp("default", "a-kind", 0, kind()), pp("default", "b-label", 0, labelled("app", "web"))},
			want:       "default/b-label",
		},
		{
			name:       "A policy ranks by its best matching selector.",
			candidates: []placement.Candidate{pp("default", "a-label", 0, labelled("app", "web")), pp("default", "b-mixed", 0, kind(), named("web"))},
			want:       "default/b-mixed",
		},
		{
			name:       "Full ties go to the lexically smaller name, whatever the order given.",
			candidates: []placement.Candidate{pp("default", "zeta", 5, kind()), pp("default", "alpha", 5, kind()), pp("default", "mid", 5, kind())},
			want:       "default/alpha",
		},
		{
			name:       "Cluster propagation policies follow the same order among themselves.",
			candidates: []placement.Candidate{cpp("b", 1, kind()), cpp("a", 1, kind()), cpp("c", 1, labelled("app", "web")), cpp("d", 0, named("web"))},
			want:       "c",
		},
		{
			name:       "A negative priority loses to the default 0.",
			candidates: []placement.Candidate{cpp("a", -1, named("web")), cpp("b", 0, kind())},
			want:       "b",
		},
		{
			name:       "A policy being deleted is not eligible.",
			candidates: []placement.Candidate{deleting(pp("default", "gone", 10, named("web"))), cpp("cluster", 0, kind())},
			want:       "cluster",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, ok := placement.BestPolicy(web, tt.candidates)
			gotName := ""
			if ok {
				gotName = got.Name
				if !got.IsCluster {
					gotName = got.Namespace + "/" + got.Name
				}
			}
			if gotName != tt.want {
				t.Errorf("BestPolicy = %q, want %q", gotName, tt.want)
			}
		})
	}
}

func TestBestPolicyOfClusterScopedResource(t *testing.T) {
	t.Parallel()
	ns := &policyv1alpha1.ResourceSelector{APIVersion: "v1", Kind: "Namespace"}
	obj := deployment("", "team-a")
	obj.SetAPIVersion("v1")
	obj.SetKind("Namespace")
	got, ok := placement.BestPolicy(obj, []placement.Candidate{pp("default", "ns", 0, *ns), cpp("cluster", 0, *ns)})
	if !ok || got.Name != "cluster" {
		t.Errorf("BestPolicy = %q, %v; want the cluster propagation policy", got.Name, ok)
	}
}

func TestCandidatesFromPolicies(t *testing.T) {
	t.Parallel()
	priority := int32(7)
	now := metav1.Now()
	p := &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web", DeletionTimestamp: &now},
		Spec:       policyv1alpha1.PropagationSpec{ResourceSelectors: []policyv1alpha1.ResourceSelector{kind()}, Priority: &priority},
	}
	c := placement.PropagationPolicyCandidate(p)
	if c.Namespace != "default" || c.Name != "web" || c.Priority != 7 || c.IsCluster || !c.Deleting || c.Policy != p || len(c.Selectors) != 1 {
		t.Errorf("PropagationPolicyCandidate = %+v", c)
	}
	cp := &policyv1alpha1.ClusterPropagationPolicy{ObjectMeta: metav1.ObjectMeta{Name: "all"}}
	cc := placement.ClusterPropagationPolicyCandidate(cp)
	if cc.Namespace != "" || cc.Name != "all" || cc.Priority != 0 || !cc.IsCluster || cc.Deleting || cc.Policy != cp {
		t.Errorf("ClusterPropagationPolicyCandidate = %+v", cc)
	}
}
