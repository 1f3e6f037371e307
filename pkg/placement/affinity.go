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

package placement

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// Cluster fields a field selector can match.
const (
	fieldProvider = "provider"
	fieldRegion   = "region"
	fieldZone     = "zone"
)

// The keys and operators a field selector can use: the same as the policy
// validation accepts, which are the ones Karmada accepts (a test checks that
// both agree).
var (
	fieldSelectorKeys      = []string{fieldProvider, fieldRegion, fieldZone}
	fieldSelectorOperators = []corev1.NodeSelectorOperator{corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn}
)

// AffinityMatcher is a ClusterAffinity compiled once; Matches does not
// allocate.
type AffinityMatcher struct {
	all     bool
	exclude nameSet
	names   *nameSet        // nil: any name
	labels  labels.Selector // nil: any labels
	fields  []fieldRequirement
}

// fieldRequirement is one field selector expression.
type fieldRequirement struct {
	key    string
	notIn  bool
	values []string
}

// CompileAffinity turns the affinity into a matcher; nil selects every
// cluster. It refuses what the policy validation refuses: a malformed
// labelSelector, and field selector expressions other than provider, region
// or zone with In or NotIn.
func CompileAffinity(affinity *policyv1alpha1.ClusterAffinity) (*AffinityMatcher, error) {
	if affinity == nil {
		return &AffinityMatcher{all: true}, nil
	}
	m := &AffinityMatcher{exclude: newNameSet(affinity.ExcludeClusters)}
	if len(affinity.ClusterNames) > 0 {
		names := newNameSet(affinity.ClusterNames)
		m.names = &names
	}
	if affinity.LabelSelector != nil {
		selector, err := metav1.LabelSelectorAsSelector(affinity.LabelSelector)
		if err != nil {
			return nil, fmt.Errorf("labelSelector: %w", err)
		}
		m.labels = selector
	}
	if affinity.FieldSelector != nil {
		for i, expr := range affinity.FieldSelector.MatchExpressions {
			r, err := compileFieldRequirement(&expr)
			if err != nil {
				return nil, fmt.Errorf("fieldSelector.matchExpressions[%d]: %w", i, err)
			}
			m.fields = append(m.fields, r)
		}
	}
	return m, nil
}

func compileFieldRequirement(expr *corev1.NodeSelectorRequirement) (fieldRequirement, error) {
	if !slices.Contains(fieldSelectorKeys, expr.Key) {
		return fieldRequirement{}, fmt.Errorf("unsupported key %q", expr.Key)
	}
	if !slices.Contains(fieldSelectorOperators, expr.Operator) {
		return fieldRequirement{}, fmt.Errorf("unsupported operator %q", expr.Operator)
	}
	return fieldRequirement{key: expr.Key, notIn: expr.Operator == corev1.NodeSelectorOpNotIn, values: expr.Values}, nil
}

// ClusterMatches tells whether the affinity selects the cluster: not
// excluded, named (when clusterNames is set), and matching the label and
// field selectors. A nil affinity selects every cluster; a malformed one
// selects none (CompileAffinity tells why).
func ClusterMatches(cluster *clusterv1alpha1.Cluster, affinity *policyv1alpha1.ClusterAffinity) bool {
	m, err := CompileAffinity(affinity)
	return err == nil && m.Matches(cluster)
}

// Matches tells whether the cluster is selected.
func (m *AffinityMatcher) Matches(cluster *clusterv1alpha1.Cluster) bool {
	if m.all {
		return true
	}
	if m.exclude.has(cluster.Name) {
		return false
	}
	if m.names != nil && !m.names.has(cluster.Name) {
		return false
	}
	if m.labels != nil && !m.labels.Matches(labels.Set(cluster.Labels)) {
		return false
	}
	for i := range m.fields {
		if !m.fields[i].matches(cluster) {
			return false
		}
	}
	return true
}

// matches applies one expression. Provider and region behave like labels
// (an empty field is absent: In fails, NotIn passes). Zone looks at every
// zone the cluster spans: In needs all of them listed, NotIn needs none.
// Without values, as in Karmada: provider and region match no cluster (a
// label requirement needs values), zone In matches none and zone NotIn all.
func (r *fieldRequirement) matches(cluster *clusterv1alpha1.Cluster) bool {
	switch r.key {
	case fieldProvider:
		return r.matchesValue(cluster.Spec.Provider)
	case fieldRegion:
		return r.matchesValue(cluster.Spec.Region)
	}
	var one [1]string
	return r.matchesZones(clusterZones(cluster, one[:0]))
}

func (r *fieldRequirement) matchesValue(value string) bool {
	if len(r.values) == 0 {
		return false
	}
	listed := value != "" && slices.Contains(r.values, value)
	return listed != r.notIn
}

func (r *fieldRequirement) matchesZones(zones []string) bool {
	if r.notIn {
		for _, z := range zones {
			if slices.Contains(r.values, z) {
				return false
			}
		}
		return true
	}
	if len(zones) == 0 {
		return false
	}
	for _, z := range zones {
		if !slices.Contains(r.values, z) {
			return false
		}
	}
	return true
}

// clusterZones returns the zones the cluster spans: spec.zones, or the
// deprecated spec.zone when zones is empty. buf (may be nil) holds the
// one-element fallback so that callers can avoid an allocation.
func clusterZones(cluster *clusterv1alpha1.Cluster, buf []string) []string {
	if len(cluster.Spec.Zones) > 0 || cluster.Spec.Zone == "" {
		return cluster.Spec.Zones
	}
	return append(buf[:0], cluster.Spec.Zone)
}

// nameSetIndexThreshold is the list length above which nameSet builds a
// map; below it a linear scan is faster and allocates nothing.
const nameSetIndexThreshold = 8

// nameSet answers "is this name in the list" quickly for long lists and
// without allocating for short ones.
type nameSet struct {
	names []string
	index map[string]struct{}
}

func newNameSet(names []string) nameSet {
	s := nameSet{names: names}
	if len(names) > nameSetIndexThreshold {
		s.index = make(map[string]struct{}, len(names))
		for _, n := range names {
			s.index[n] = struct{}{}
		}
	}
	return s
}

func (s *nameSet) has(name string) bool {
	if s.index != nil {
		_, ok := s.index[name]
		return ok
	}
	return slices.Contains(s.names, name)
}
