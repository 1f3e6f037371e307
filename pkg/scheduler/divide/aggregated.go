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

package divide

import (
	"cmp"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Aggregated places replicas on as few clusters as it can, never giving a
// cluster more than Previous+Available.
//
// Clusters are ranked with those already holding replicas first, then by
// capacity from large to small, then by name. The shortest run of ranked
// clusters whose capacity covers what must be placed is chosen, and the
// replicas are divided over it in proportion to capacity. Capacity is
// Available+Previous when fresh is set (a fresh split of all replicas) and
// Available otherwise (where only the increase is placed and added to the
// previous assignment). When replicas shrink without fresh, the previous
// assignment is the capacity: clusters holding the most replicas are kept
// until they cover the new count, so the workload gathers on fewer clusters.
// An unchanged total keeps the previous assignment.
//
// It returns *InsufficientCapacityError when the replicas (or the increase)
// do not fit.
func Aggregated(replicas int32, cands []Candidate, uid string, fresh bool) ([]workv1alpha2.TargetCluster, error) {
	if replicas <= 0 {
		return nil, nil
	}
	if fresh {
		return aggregate(replicas, cands, withPrevious, uid, nil)
	}
	prev := previousTotal(cands)
	switch {
	case int64(replicas) == prev:
		return result(cands, nil), nil
	case int64(replicas) < prev:
		return aggregate(replicas, cands, previous, uid, nil)
	}
	return aggregate(int32(int64(replicas)-prev), cands, available, uid, cands)
}

// aggregate divides seats over the shortest ranked prefix of cands whose
// capacity covers them. When base is not nil its Previous replicas are added
// to the result.
func aggregate(seats int32, cands []Candidate, capacity func(Candidate) int64, uid string, base []Candidate) ([]workv1alpha2.TargetCluster, error) {
	chosen := shortestCover(seats, cands, capacity)
	got, err := fill(seats, chosen, capacity, uid)
	if err != nil {
		return nil, err
	}
	if base == nil {
		return result(chosen, got), nil
	}
	extra := make(map[string]int32, len(chosen))
	for i, c := range chosen {
		extra[c.Name] = got[i]
	}
	sum := make([]int32, len(base))
	for i, c := range base {
		sum[i] = extra[c.Name]
	}
	return addPrevious(base, sum), nil
}

// shortestCover returns the candidates with capacity, ranked (previously
// used first, then larger capacity, then smaller name), up to the first
// whose running capacity reaches seats. The ranking is a total order, so
// picking the best one at a time from a heap gives the same prefix as
// sorting everything, at O(n + k log n) for k picks instead of O(n log n).
func shortestCover(seats int32, cands []Candidate, capacity func(Candidate) int64) []Candidate {
	caps := make([]int64, len(cands))
	h := make([]int, 0, len(cands))
	for i, c := range cands {
		if caps[i] = capacity(c); caps[i] > 0 {
			h = append(h, i)
		}
	}
	better := func(a, b int) bool {
		return cmp.Or(
			cmp.Compare(min(previous(cands[b]), 1), min(previous(cands[a]), 1)), // previously used first
			cmp.Compare(caps[b], caps[a]),
			cmp.Compare(cands[a].Name, cands[b].Name),
		) < 0
	}
	heapify(h, better)
	var total int64
	var chosen []Candidate
	for len(h) > 0 && total < int64(seats) {
		i := h[0]
		h = pop(h, better)
		chosen = append(chosen, cands[i])
		total = addCapped(total, caps[i])
	}
	return chosen
}
