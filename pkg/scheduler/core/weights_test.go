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

package core

import (
	"fmt"
	"math/rand"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// naiveWeight is the definition the index must agree with: the largest
// weight among the rules matching the cluster, 0 when none does.
func naiveWeight(t *testing.T, rules []policyv1alpha1.StaticClusterWeight, cluster *clusterv1alpha1.Cluster) int64 {
	t.Helper()
	var w int64
	for i := range rules {
		m, err := plugins.NewAffinityMatcher(&rules[i].TargetCluster)
		if err != nil {
			t.Fatal(err)
		}
		if rules[i].Weight > w && m.Matches(cluster) {
			w = rules[i].Weight
		}
	}
	return w
}

// randomRule mixes the shapes the index treats differently: names only,
// one label value (on two keys), and rules left to the matcher: names with
// an exclusion, a set-based selector, names with a label, match-all.
func randomRule(rng *rand.Rand) policyv1alpha1.StaticClusterWeight {
	name := func() string { return fmt.Sprintf("m%d", rng.Intn(8)) }
	tier := func() string { return fmt.Sprint(rng.Intn(3)) }
	var a policyv1alpha1.ClusterAffinity
	switch rng.Intn(7) {
	case 0:
		a.ClusterNames = []string{name(), name()}
	case 1:
		a.ClusterNames, a.ExcludeClusters = []string{name(), name(), name()}, []string{name()}
	case 2:
		a.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": tier()}}
	case 3:
		a.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"zone": tier()}}
	case 4:
		a.LabelSelector = &metav1.LabelSelector{MatchExpressions: []metav1.LabelSelectorRequirement{
			{Key: "tier", Operator: metav1.LabelSelectorOpIn, Values: []string{tier(), tier()}}}}
	case 5:
		a.ClusterNames = []string{name(), name(), name()}
		a.LabelSelector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": tier()}}
	}
	return policyv1alpha1.StaticClusterWeight{TargetCluster: a, Weight: int64(rng.Intn(6))}
}

func TestWeightIndexAgreesWithTestingEveryRule(t *testing.T) {
	t.Parallel()
	clusters := make([]*clusterv1alpha1.Cluster, 8)
	for i := range clusters {
		b := builders.NewCluster(fmt.Sprintf("m%d", i)).WithLabel("tier", fmt.Sprint(i%3))
		if i%2 == 0 {
			b.WithLabel("zone", fmt.Sprint(i%3))
		}
		clusters[i] = b.Build()
	}
	rng := rand.New(rand.NewSource(7))
	for round := range 500 {
		rules := make([]policyv1alpha1.StaticClusterWeight, 1+rng.Intn(6))
		for i := range rules {
			rules[i] = randomRule(rng)
		}
		idx, err := newWeightIndex(rules)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range clusters {
			if got, want := idx.weight(c), naiveWeight(t, rules, c); got != want {
				t.Fatalf("round %d, cluster %s: index gives %d, rules give %d (rules %+v)", round, c.Name, got, want, rules)
			}
		}
	}
}

func TestRuleShapes(t *testing.T) {
	t.Parallel()
	selector := &metav1.LabelSelector{}
	gold := &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}
	twoKeys := &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "gold", "env": "prod"}}
	for _, tc := range []struct {
		name     string
		affinity policyv1alpha1.ClusterAffinity
		shape    string
	}{
		{"An affinity listing only names selects exactly those names", policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}}, "names"},
		{"An affinity with one matchLabels entry selects one label value", policyv1alpha1.ClusterAffinity{LabelSelector: gold}, "label tier=gold"},
		{"An empty affinity selects every cluster", policyv1alpha1.ClusterAffinity{}, "matcher"},
		{"An empty label selector needs the matcher", policyv1alpha1.ClusterAffinity{LabelSelector: selector}, "matcher"},
		{"Two label keys need the matcher", policyv1alpha1.ClusterAffinity{LabelSelector: twoKeys}, "matcher"},
		{"An exclusion list needs the matcher", policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}, ExcludeClusters: []string{"m1"}}, "matcher"},
		{"Names with a label selector need the matcher", policyv1alpha1.ClusterAffinity{ClusterNames: []string{"m1"}, LabelSelector: gold}, "matcher"},
		{"A field selector needs the matcher", policyv1alpha1.ClusterAffinity{LabelSelector: gold, FieldSelector: &policyv1alpha1.FieldSelector{}}, "matcher"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			shape := "matcher"
			if key, value, ok := oneLabel(&tc.affinity); ok {
				shape = "label " + key + "=" + value
			}
			if namesOnly(&tc.affinity) {
				shape = "names"
			}
			if shape != tc.shape {
				t.Errorf("shape = %q, want %q", shape, tc.shape)
			}
		})
	}
}
