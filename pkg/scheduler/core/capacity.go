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
	"math"
	"sync"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/estimate"
	"github.com/mco-org/mco/pkg/scheduler/spread"
)

// capacityCache keeps the free resources read from each cluster object's
// resource summary, so that bindings do not parse the same quantities
// again. It is keyed by object identity: cluster objects from an informer
// are replaced on update, never changed in place, which is also what Input
// asks of callers. Looking a pointer up never touches the (large, scattered)
// cluster object, and the map stays small enough to sit in the CPU cache.
//
// The lock is taken once per pass, not per cluster. Entries of replaced
// objects are dropped by clearing the map when it holds more than twice the
// clusters of the largest pass seen. It is safe for concurrent use.
type capacityCache struct {
	mu      sync.RWMutex
	entries map[*clusterv1alpha1.Cluster]estimate.Capacity
	// largest is the most candidates a pass has had.
	largest int
}

// fill sets each candidate's Available: how many more replicas of request
// its cluster can take.
func (c *capacityCache) fill(candidates []spread.Candidate, request *estimate.Request) {
	var missed []int
	c.mu.RLock()
	for i := range candidates {
		capacity, ok := c.entries[candidates[i].Cluster]
		if !ok {
			missed = append(missed, i)
			continue
		}
		candidates[i].Available = capacity.Replicas(request)
	}
	c.mu.RUnlock()
	if len(missed) == 0 {
		return
	}
	read := make([]estimate.Capacity, len(missed))
	for k, i := range missed {
		read[k] = estimate.CapacityOf(candidates[i].Cluster)
		candidates[i].Available = read[k].Replicas(request)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.largest = max(c.largest, len(candidates))
	if c.entries == nil || len(c.entries)+len(missed) > 2*c.largest+64 {
		c.entries = make(map[*clusterv1alpha1.Cluster]estimate.Capacity, c.largest)
	}
	for k, i := range missed {
		c.entries[candidates[i].Cluster] = read[k]
	}
}

// fillSets sets each candidate's Available to the complete sets of
// components its cluster can hold.
func fillSets(candidates []spread.Candidate, components []workv1alpha2.Component) {
	for i := range candidates {
		sets, _ := estimate.ComponentSets(candidates[i].Cluster, components)
		candidates[i].Available = min(sets, math.MaxInt32)
	}
}
