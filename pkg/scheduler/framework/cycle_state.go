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

package framework

import (
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// StateKey names one entry a plugin keeps in the CycleState.
type StateKey string

// CycleState carries what is worked out once per binding and read for every
// cluster: the cluster affinity in force, compiled selectors, name indexes.
// Use a fresh CycleState for each binding (and each affinity term tried).
// It is not safe for concurrent use; the framework runs plugins on one
// goroutine.
type CycleState struct {
	affinity    *policyv1alpha1.ClusterAffinity
	hasAffinity bool
	scheduled   *NameSet
	entries     []stateEntry
}

type stateEntry struct {
	key   StateKey
	value any
}

// NewCycleState returns an empty state.
func NewCycleState() *CycleState {
	return &CycleState{}
}

// SetClusterAffinity fixes the cluster affinity the ClusterAffinity filter
// uses, typically one term of placement.clusterAffinities. A nil affinity
// admits every cluster. Without this call the filter uses the placement's
// clusterAffinity.
func (s *CycleState) SetClusterAffinity(affinity *policyv1alpha1.ClusterAffinity) {
	s.affinity, s.hasAffinity = affinity, true
}

// ClusterAffinity returns the affinity set by SetClusterAffinity and whether
// one was set.
func (s *CycleState) ClusterAffinity() (*policyv1alpha1.ClusterAffinity, bool) {
	return s.affinity, s.hasAffinity
}

// Write stores value under key, replacing any earlier value.
func (s *CycleState) Write(key StateKey, value any) {
	for i := range s.entries {
		if s.entries[i].key == key {
			s.entries[i].value = value
			return
		}
	}
	s.entries = append(s.entries, stateEntry{key: key, value: value})
}

// Read returns the value stored under key. The handful of keys makes a
// linear scan cheaper than a map.
func (s *CycleState) Read(key StateKey) (any, bool) {
	for i := range s.entries {
		if s.entries[i].key == key {
			return s.entries[i].value, true
		}
	}
	return nil, false
}

// ScheduledClusters returns the clusters of spec.clusters (the previous
// result) as a set. It is built on first use and then kept, so all calls on
// one state must pass the same spec.
func (s *CycleState) ScheduledClusters(spec *workv1alpha2.ResourceBindingSpec) *NameSet {
	if s.scheduled == nil {
		names := make([]string, len(spec.Clusters))
		for i := range spec.Clusters {
			names[i] = spec.Clusters[i].Name
		}
		s.scheduled = NewNameSet(names)
	}
	return s.scheduled
}

// nameSetIndexThreshold is the list length above which NameSet builds a map;
// below it a linear scan is faster and allocates nothing.
const nameSetIndexThreshold = 8

// NameSet answers "is this name in the list" quickly for long lists and
// without allocating for short ones.
type NameSet struct {
	names []string
	index map[string]struct{}
}

// NewNameSet wraps names; the slice is kept, not copied.
func NewNameSet(names []string) *NameSet {
	s := &NameSet{names: names}
	if len(names) > nameSetIndexThreshold {
		s.index = make(map[string]struct{}, len(names))
		for _, n := range names {
			s.index[n] = struct{}{}
		}
	}
	return s
}

// Has tells whether name is in the set. A nil set is empty.
func (s *NameSet) Has(name string) bool {
	if s == nil {
		return false
	}
	if s.index != nil {
		_, ok := s.index[name]
		return ok
	}
	for _, n := range s.names {
		if n == name {
			return true
		}
	}
	return false
}

// Len returns the number of names given, counting duplicates.
func (s *NameSet) Len() int {
	if s == nil {
		return 0
	}
	return len(s.names)
}

// ClusterZones returns the zones the cluster spans: spec.zones, or the
// deprecated spec.zone when zones is empty. buf (may be nil) holds the
// one-element fallback so that callers can avoid an allocation.
func ClusterZones(cluster *clusterv1alpha1.Cluster, buf []string) []string {
	if len(cluster.Spec.Zones) > 0 || cluster.Spec.Zone == "" {
		return cluster.Spec.Zones
	}
	return append(buf[:0], cluster.Spec.Zone)
}
