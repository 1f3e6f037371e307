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

package plugins

import (
	"fmt"
	"slices"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// Cluster fields a field selector can match.
const (
	fieldProvider = "provider"
	fieldRegion   = "region"
	fieldZone     = "zone"
)

// affinityMatcher is a ClusterAffinity compiled once per binding; matches
// does not allocate.
type affinityMatcher struct {
	all     bool
	exclude *framework.NameSet
	names   *framework.NameSet // nil: any name
	labels  labels.Selector    // nil: any labels
	fields  []fieldRequirement
}

// fieldRequirement is one field selector expression.
type fieldRequirement struct {
	key    string
	op     corev1.NodeSelectorOperator
	values []string
}

// compileAffinity turns the affinity into a matcher; nil selects everything.
func compileAffinity(affinity *policyv1alpha1.ClusterAffinity) (*affinityMatcher, error) {
	if affinity == nil {
		return &affinityMatcher{all: true}, nil
	}
	m := &affinityMatcher{exclude: framework.NewNameSet(affinity.ExcludeClusters)}
	if len(affinity.ClusterNames) > 0 {
		m.names = framework.NewNameSet(affinity.ClusterNames)
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
			switch expr.Key {
			case fieldProvider, fieldRegion, fieldZone:
			default:
				return nil, fmt.Errorf("fieldSelector.matchExpressions[%d]: unsupported key %q", i, expr.Key)
			}
			switch expr.Operator {
			case corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn,
				corev1.NodeSelectorOpExists, corev1.NodeSelectorOpDoesNotExist:
			default:
				return nil, fmt.Errorf("fieldSelector.matchExpressions[%d]: unsupported operator %q", i, expr.Operator)
			}
			m.fields = append(m.fields, fieldRequirement{key: expr.Key, op: expr.Operator, values: expr.Values})
		}
	}
	return m, nil
}

// matches tells whether the cluster is selected.
func (m *affinityMatcher) matches(cluster *clusterv1alpha1.Cluster) bool {
	if m.all {
		return true
	}
	if m.exclude.Has(cluster.Name) {
		return false
	}
	if m.names != nil && !m.names.Has(cluster.Name) {
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
func (r *fieldRequirement) matches(cluster *clusterv1alpha1.Cluster) bool {
	switch r.key {
	case fieldProvider:
		return r.matchesValue(cluster.Spec.Provider)
	case fieldRegion:
		return r.matchesValue(cluster.Spec.Region)
	}
	var one [1]string
	return r.matchesZones(framework.ClusterZones(cluster, one[:0]))
}

func (r *fieldRequirement) matchesValue(value string) bool {
	switch r.op {
	case corev1.NodeSelectorOpIn:
		return value != "" && slices.Contains(r.values, value)
	case corev1.NodeSelectorOpNotIn:
		return value == "" || !slices.Contains(r.values, value)
	case corev1.NodeSelectorOpExists:
		return value != ""
	default: // DoesNotExist; compileAffinity refused the rest
		return value == ""
	}
}

func (r *fieldRequirement) matchesZones(zones []string) bool {
	switch r.op {
	case corev1.NodeSelectorOpIn:
		if len(zones) == 0 {
			return false
		}
		for _, z := range zones {
			if !slices.Contains(r.values, z) {
				return false
			}
		}
		return true
	case corev1.NodeSelectorOpNotIn:
		for _, z := range zones {
			if slices.Contains(r.values, z) {
				return false
			}
		}
		return true
	case corev1.NodeSelectorOpExists:
		return len(zones) > 0
	default: // DoesNotExist
		return len(zones) == 0
	}
}

// AffinityMatcher tests clusters against one ClusterAffinity, compiled once;
// the scheduler uses it for static weight rules.
type AffinityMatcher struct {
	m *affinityMatcher
}

// NewAffinityMatcher compiles an affinity; nil selects every cluster.
func NewAffinityMatcher(affinity *policyv1alpha1.ClusterAffinity) (*AffinityMatcher, error) {
	m, err := compileAffinity(affinity)
	if err != nil {
		return nil, err
	}
	return &AffinityMatcher{m: m}, nil
}

// Matches tells whether the cluster is selected.
func (a *AffinityMatcher) Matches(cluster *clusterv1alpha1.Cluster) bool {
	return a.m.matches(cluster)
}
