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

package spread

import (
	"cmp"
	"slices"
)

// items are clusters to pick, listed best first, with their capacity and
// the ids of the chosen groups each keeps alive. The ids are kept in one
// pointer-free array.
type items struct {
	available []int64
	covers    []int32 // the ids of all items, concatenated
	end       []int32 // where each item's ids end in covers
}

func (it *items) of(i int) []int32 {
	var start int32
	if i > 0 {
		start = it.end[i-1]
	}
	return it.covers[start:it.end[i]]
}

// pick chooses up to k items; ids are below idSpace. It first takes, best
// first, every item that covers a group no taken item covers yet, then
// fills up by rank. When need > 0 and the taken items' capacity falls
// short, it goes through them from the smallest, swapping each for the
// biggest untaken item that is bigger and leaves no group uncovered, until
// need is met.
func pick(it *items, k, idSpace int, need int64) []bool {
	n := len(it.available)
	p := picker{it: it, taken: make([]bool, n), cover: make([]int, idSpace)}
	uncovered := 0
	seen := make([]bool, idSpace)
	for _, c := range it.covers {
		if !seen[c] {
			seen[c] = true
			uncovered++
		}
	}
	count := 0
	for i := 0; i < n && count < k && uncovered > 0; i++ {
		if fresh := p.newlyCovered(i); fresh > 0 {
			p.take(i, 1)
			count++
			uncovered -= fresh
		}
	}
	for i := 0; i < n && count < k; i++ {
		if !p.taken[i] {
			p.take(i, 1)
			count++
		}
	}
	if need > 0 && count < n {
		p.swapForCapacity(need)
	}
	return p.taken
}

type picker struct {
	it    *items
	taken []bool
	cover []int // taken items covering each group
}

func (p *picker) take(i, delta int) {
	p.taken[i] = delta > 0
	for _, c := range p.it.of(i) {
		p.cover[c] += delta
	}
}

// newlyCovered counts the groups item i would be the first to cover.
func (p *picker) newlyCovered(i int) int {
	n := 0
	for _, c := range p.it.of(i) {
		if p.cover[c] == 0 {
			n++
		}
	}
	return n
}

// canReplace tells whether taken item old can give way to next without
// leaving a group uncovered.
func (p *picker) canReplace(old, next int) bool {
	for _, c := range p.it.of(old) {
		if p.cover[c] == 1 && !slices.Contains(p.it.of(next), c) {
			return false
		}
	}
	return true
}

func (p *picker) swapForCapacity(need int64) {
	avail := p.it.available
	var total int64
	var in, out []int
	for i := range avail {
		if p.taken[i] {
			total += avail[i]
			in = append(in, i)
		} else {
			out = append(out, i)
		}
	}
	if total >= need {
		return
	}
	// Smallest first; among equals the worse ranked (higher index) first.
	slices.SortFunc(in, func(a, b int) int {
		if c := cmp.Compare(avail[a], avail[b]); c != 0 {
			return c
		}
		return cmp.Compare(b, a)
	})
	// Biggest first; among equals the better ranked first.
	slices.SortFunc(out, func(a, b int) int {
		if c := cmp.Compare(avail[b], avail[a]); c != 0 {
			return c
		}
		return cmp.Compare(a, b)
	})
	used := make([]bool, len(out))
	for _, old := range in {
		if total >= need {
			return
		}
		for j, next := range out {
			if used[j] {
				continue
			}
			if avail[next] <= avail[old] {
				break
			}
			if p.canReplace(old, next) {
				p.take(old, -1)
				p.take(next, 1)
				used[j] = true
				total += avail[next] - avail[old]
				break
			}
		}
	}
}
