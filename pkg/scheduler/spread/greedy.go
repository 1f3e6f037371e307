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
	"strings"
)

// greedy is the fallback for choices too large for the bounded search: it
// adds items by weight descending, then value descending, then name, until
// the set has min groups and holds the target, except that when the next
// of them would leave the target out of reach within max groups, it adds
// the item with the most clusters instead. It returns the items
// (ascending) and whether the set meets the bounds and the target.
func (g *groupSearch) greedy() ([]int, bool) {
	byWeight := make([]int, len(g.items))
	for i := range byWeight {
		byWeight[i] = i
	}
	bySize := slices.Clone(byWeight)
	slices.SortFunc(byWeight, func(a, b int) int {
		x, y := &g.items[a], &g.items[b]
		if c := cmp.Compare(y.weight, x.weight); c != 0 {
			return c
		}
		if c := cmp.Compare(y.value, x.value); c != 0 {
			return c
		}
		return strings.Compare(x.name, y.name)
	})
	slices.SortStableFunc(bySize, func(a, b int) int { return cmp.Compare(g.items[b].value, g.items[a].value) })

	taken := make([]bool, len(g.items))
	n := len(g.forced)
	sum, _ := g.forcedTotals()
	var items []int
	take := func(i int) {
		taken[i] = true
		items = append(items, i)
		n++
		sum += g.items[i].value
	}
	if !g.reachable(bySize, taken, n, sum) {
		return nil, false
	}
	next := 0
	for n < g.min || sum < g.target {
		for next < len(byWeight) && taken[byWeight[next]] {
			next++
		}
		if n >= g.max || next == len(byWeight) {
			return nil, false
		}
		take(byWeight[next])
		if !g.reachable(bySize, taken, n, sum) {
			taken[byWeight[next]] = false
			items, n, sum = items[:len(items)-1], n-1, sum-g.items[byWeight[next]].value
			for _, i := range bySize {
				if !taken[i] {
					take(i)
					break
				}
			}
		}
	}
	slices.Sort(items)
	return items, n <= g.max
}

// reachable tells whether the target can still be reached by adding the
// biggest items not taken while staying within max groups.
func (g *groupSearch) reachable(bySize []int, taken []bool, n int, sum int64) bool {
	for _, i := range bySize {
		if sum >= g.target || n >= g.max {
			break
		}
		if !taken[i] {
			sum += g.items[i].value
			n++
		}
	}
	return sum >= g.target
}
