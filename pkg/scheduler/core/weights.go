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
	"cmp"
	"fmt"
	"slices"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/divide"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/scheduler/spread"
)

// staticWeights sets each candidate's weight to the largest weight among
// the rules whose target matches it (0 when none does; divide then gives
// every cluster weight 1 if no rule matched any).
func staticWeights(cands []divide.Candidate, selected []spread.Candidate, prefs *policyv1alpha1.ClusterPreferences) error {
	if prefs == nil || len(prefs.StaticWeightList) == 0 {
		return nil
	}
	idx, err := newWeightIndex(prefs.StaticWeightList)
	if err != nil {
		return err
	}
	for i, c := range selected {
		cands[i].Weight = idx.weight(c.Cluster)
	}
	return nil
}

// weightIndex finds a cluster's static weight without testing every rule
// against every cluster: a list with one clusterNames rule per cluster would
// otherwise cost clusters × rules. Rules of the two common shapes are folded
// into maps from their one criterion to the largest weight: rules that only
// name clusters, and rules that only ask for one label value (matchLabels
// with a single key). The other rules are compiled and kept heaviest first,
// so the scan stops at the first match that can still raise the weight.
type weightIndex struct {
	byName  map[string]int64
	byLabel []labelWeights
	others  []weightRule
}

// labelWeights maps the values of one label key to the largest weight.
type labelWeights struct {
	key     string
	byValue map[string]int64
}

type weightRule struct {
	weight  int64
	matches func(*clusterv1alpha1.Cluster) bool
}

func newWeightIndex(rules []policyv1alpha1.StaticClusterWeight) (*weightIndex, error) {
	names := 0
	for i := range rules {
		names += len(rules[i].TargetCluster.ClusterNames)
	}
	idx := &weightIndex{byName: make(map[string]int64, names)}
	for i := range rules {
		rule := &rules[i]
		if namesOnly(&rule.TargetCluster) {
			for _, name := range rule.TargetCluster.ClusterNames {
				raise(idx.byName, name, rule.Weight)
			}
			continue
		}
		// Compile every other rule, if only to refuse a malformed one.
		m, err := plugins.NewAffinityMatcher(&rule.TargetCluster)
		if err != nil {
			return nil, fmt.Errorf("staticWeightList[%d].targetCluster: %w", i, err)
		}
		if rule.Weight <= 0 {
			continue // never raises the default 0
		}
		if key, value, ok := oneLabel(&rule.TargetCluster); ok {
			idx.labelWeights(key)[value] = max(idx.labelWeights(key)[value], rule.Weight)
			continue
		}
		idx.others = append(idx.others, weightRule{weight: rule.Weight, matches: m.Matches})
	}
	slices.SortStableFunc(idx.others, func(a, b weightRule) int { return cmp.Compare(b.weight, a.weight) })
	return idx, nil
}

// raise sets m[key] to w when w is larger.
func raise(m map[string]int64, key string, w int64) {
	if w > m[key] {
		m[key] = w
	}
}

// labelWeights returns the value map of a label key, adding it if new.
func (x *weightIndex) labelWeights(key string) map[string]int64 {
	for i := range x.byLabel {
		if x.byLabel[i].key == key {
			return x.byLabel[i].byValue
		}
	}
	x.byLabel = append(x.byLabel, labelWeights{key: key, byValue: map[string]int64{}})
	return x.byLabel[len(x.byLabel)-1].byValue
}

// namesOnly tells whether the affinity selects exactly its clusterNames.
func namesOnly(a *policyv1alpha1.ClusterAffinity) bool {
	return len(a.ClusterNames) > 0 && len(a.ExcludeClusters) == 0 && a.LabelSelector == nil && a.FieldSelector == nil
}

// oneLabel tells whether the affinity selects exactly the clusters whose
// label key has the value, and returns both.
func oneLabel(a *policyv1alpha1.ClusterAffinity) (key, value string, ok bool) {
	sel := a.LabelSelector
	if sel == nil || len(sel.MatchLabels) != 1 || len(sel.MatchExpressions) > 0 ||
		len(a.ClusterNames) > 0 || len(a.ExcludeClusters) > 0 || a.FieldSelector != nil {
		return "", "", false
	}
	for k, v := range sel.MatchLabels {
		key, value = k, v
	}
	return key, value, true
}

// weight returns the largest weight of the rules matching the cluster, 0
// when none does.
func (x *weightIndex) weight(cluster *clusterv1alpha1.Cluster) int64 {
	w := x.byName[cluster.Name]
	for i := range x.byLabel {
		if v, ok := cluster.Labels[x.byLabel[i].key]; ok {
			w = max(w, x.byLabel[i].byValue[v])
		}
	}
	for _, r := range x.others {
		if r.weight <= w {
			break
		}
		if r.matches(cluster) {
			return r.weight
		}
	}
	return w
}
