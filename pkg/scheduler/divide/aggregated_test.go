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
	"math/rand"
	"slices"
	"testing"
)

// coverBySort is the definition shortestCover must agree with: sort every
// candidate with capacity, then take the shortest prefix covering seats.
func coverBySort(seats int32, cands []Candidate, capacity func(Candidate) int64) []Candidate {
	var ranked []Candidate
	for _, c := range cands {
		if capacity(c) > 0 {
			ranked = append(ranked, c)
		}
	}
	slices.SortFunc(ranked, func(a, b Candidate) int {
		return cmp.Or(cmp.Compare(min(previous(b), 1), min(previous(a), 1)),
			cmp.Compare(capacity(b), capacity(a)), cmp.Compare(a.Name, b.Name))
	})
	var total int64
	for i, c := range ranked {
		if total >= int64(seats) {
			return ranked[:i]
		}
		total = addCapped(total, capacity(c))
	}
	return ranked
}

func TestShortestCoverAgreesWithSortingEveryCandidate(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewSource(11))
	for round := range 2000 {
		ids := rng.Perm(100)[:rng.Intn(30)] // unique names, as Candidate asks
		cands := make([]Candidate, len(ids))
		for i, id := range ids {
			cands[i] = Candidate{Name: fmt.Sprintf("m%02d", id), Previous: int32(rng.Intn(3)), Available: int64(rng.Intn(6))}
		}
		seats := int32(1 + rng.Intn(40))
		for name, capacity := range map[string]func(Candidate) int64{"available": available, "withPrevious": withPrevious, "previous": previous} {
			got, want := names(shortestCover(seats, cands, capacity)), names(coverBySort(seats, cands, capacity))
			if !slices.Equal(got, want) {
				t.Fatalf("round %d, capacity %s, %d seats over %+v:\n got %v\nwant %v", round, name, seats, cands, got, want)
			}
		}
	}
}

func names(cands []Candidate) []string {
	out := make([]string, len(cands))
	for i, c := range cands {
		out[i] = c.Name
	}
	return out
}
