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
	"fmt"
	"slices"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Candidate is a cluster that passed filtering, with what the division needs
// to know about it. Names must be unique within one call.
type Candidate struct {
	// Name of the member cluster.
	Name string
	// Weight is the static weight, used only by StaticWeight.
	Weight int64
	// Previous is the replicas the cluster holds in the current assignment,
	// 0 if none. The caller leaves out clusters that are no longer feasible.
	Previous int32
	// Available is how many more replicas the cluster can take beyond what it
	// runs now; Unbounded when nothing limits it. Negative counts as 0.
	Available int64
}

// InsufficientCapacityError means the candidates cannot hold the replicas
// that must be placed. Nothing should be written when it is returned; the
// binding is unschedulable until capacity appears.
type InsufficientCapacityError struct {
	// Needed is how many replicas had to be placed: the whole count, or the
	// increase when scaling up an existing assignment.
	Needed int64
	// Available is how many the candidates could take.
	Available int64
}

func (e *InsufficientCapacityError) Error() string {
	return fmt.Sprintf("insufficient capacity: %d replicas to place but the clusters can take only %d", e.Needed, e.Available)
}

// Duplicated gives every named cluster all the replicas. Repeated names
// appear once.
func Duplicated(replicas int32, names []string) []workv1alpha2.TargetCluster {
	sorted := slices.Compact(slices.Sorted(slices.Values(names)))
	out := make([]workv1alpha2.TargetCluster, len(sorted))
	for i, n := range sorted {
		out[i] = workv1alpha2.TargetCluster{Name: n, Replicas: replicas}
	}
	return out
}

// StaticWeight divides replicas by the candidates' Weight. Clusters with a
// weight of zero or less get nothing, unless every weight is, in which case
// all clusters weigh 1. Previous and Available are ignored: a static split is
// recomputed from scratch each time and does not look at capacity.
func StaticWeight(replicas int32, cands []Candidate, uid string) []workv1alpha2.TargetCluster {
	allZero := !slices.ContainsFunc(cands, func(c Candidate) bool { return c.Weight > 0 })
	parties := make([]Weighted, len(cands))
	for i, c := range cands {
		w := c.Weight
		if allZero {
			w = 1
		}
		parties[i] = Weighted{Name: c.Name, Weight: w, Cap: Unbounded}
	}
	return result(cands, Webster(replicas, parties, uid))
}

// DynamicWeight divides replicas in proportion to each cluster's available
// replicas, never giving a cluster more than Previous+Available.
//
// With fresh set the previous assignment is only a head start: the split is
// recomputed with Available+Previous as both weight and limit. Otherwise the
// previous assignment is kept as far as possible:
//   - same total: the previous assignment is returned unchanged;
//   - fewer replicas: the previous assignment shrinks in proportion to itself;
//   - more replicas: only the increase is divided, by Available, and added.
//
// It returns *InsufficientCapacityError when the replicas (or the increase)
// do not fit.
func DynamicWeight(replicas int32, cands []Candidate, uid string, fresh bool) ([]workv1alpha2.TargetCluster, error) {
	if replicas <= 0 {
		return nil, nil
	}
	if fresh {
		got, err := fill(replicas, cands, withPrevious, uid)
		if err != nil {
			return nil, err
		}
		return result(cands, got), nil
	}
	prev := previousTotal(cands)
	switch {
	case int64(replicas) == prev:
		return result(cands, nil), nil
	case int64(replicas) < prev:
		return result(cands, Webster(replicas, capacities(cands, previous), uid)), nil
	}
	got, err := fill(int32(int64(replicas)-prev), cands, available, uid)
	if err != nil {
		return nil, err
	}
	return addPrevious(cands, got), nil
}

// fill divides seats over cands with capacity(c) as both weight and limit,
// or fails when the capacities add up to less than seats.
func fill(seats int32, cands []Candidate, capacity func(Candidate) int64, uid string) ([]int32, error) {
	parties := capacities(cands, capacity)
	var total int64
	for _, p := range parties {
		total = addCapped(total, p.Cap)
	}
	if total < int64(seats) {
		return nil, &InsufficientCapacityError{Needed: int64(seats), Available: total}
	}
	return Webster(seats, parties, uid), nil
}

// capacities turns candidates into Webster parties whose weight and cap are
// both capacity(c).
func capacities(cands []Candidate, capacity func(Candidate) int64) []Weighted {
	parties := make([]Weighted, len(cands))
	for i, c := range cands {
		k := capacity(c)
		parties[i] = Weighted{Name: c.Name, Weight: k, Cap: k}
	}
	return parties
}

func previous(c Candidate) int64 { return int64(max(c.Previous, 0)) }

func available(c Candidate) int64 { return max(c.Available, 0) }

func withPrevious(c Candidate) int64 { return addCapped(available(c), previous(c)) }

func previousTotal(cands []Candidate) int64 {
	var sum int64
	for _, c := range cands {
		sum += previous(c)
	}
	return sum
}

// addCapped adds two non-negative numbers, stopping at Unbounded.
func addCapped(a, b int64) int64 {
	if a > Unbounded-b {
		return Unbounded
	}
	return a + b
}

// addPrevious returns the previous assignment plus the extra replicas in got.
func addPrevious(cands []Candidate, got []int32) []workv1alpha2.TargetCluster {
	sum := make([]int32, len(cands))
	for i, c := range cands {
		sum[i] = int32(previous(c)) + got[i]
	}
	return result(cands, sum)
}

// result pairs candidates with their replicas, drops zeros and sorts by
// name. A nil got means each candidate's Previous.
func result(cands []Candidate, got []int32) []workv1alpha2.TargetCluster {
	count := func(i int) int32 {
		if got != nil {
			return got[i]
		}
		return int32(previous(cands[i]))
	}
	n := 0
	for i := range cands {
		if count(i) > 0 {
			n++
		}
	}
	if n == 0 {
		return nil
	}
	out := make([]workv1alpha2.TargetCluster, 0, n)
	for i, c := range cands {
		if r := count(i); r > 0 {
			out = append(out, workv1alpha2.TargetCluster{Name: c.Name, Replicas: r})
		}
	}
	byName := func(a, b workv1alpha2.TargetCluster) int { return cmp.Compare(a.Name, b.Name) }
	if !slices.IsSortedFunc(out, byName) {
		slices.SortFunc(out, byName)
	}
	return out
}
