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

import "slices"

// enumeration grows every set of at most exhaustiveLimit items depth
// first, noting which it keeps (by bit mask of item indexes) and the best.
type enumeration struct {
	g      *groupSearch
	kept   []bool
	path   []int
	best   []int
	weight int64 // of the best kept set
	value  int64
	found  bool
}

// enumerate returns the best kept set (item indexes ascending), a test of
// whether a set was kept, and whether any was.
func (g *groupSearch) enumerate() ([]int, func(items []int) bool, bool) {
	e := &enumeration{g: g, kept: make([]bool, 1<<len(g.items))}
	value, weight := g.forcedTotals()
	e.grow(0, 0, len(g.forced), value, weight)
	kept := func(items []int) bool {
		var mask uint32
		for _, i := range items {
			mask |= 1 << i
		}
		return e.kept[mask]
	}
	return e.best, kept, e.found
}

// grow visits the set on the path (mask, n groups, value clusters, weight),
// then the sets grown from it with items from next on.
func (e *enumeration) grow(next int, mask uint32, n int, value, weight int64) {
	g := e.g
	if n >= g.min && n <= g.max && value >= g.target {
		e.kept[mask] = true
		if !e.found || weight > e.weight || weight == e.weight && value > e.value {
			e.found, e.weight, e.value = true, weight, value
			e.best = slices.Clone(e.path)
		}
		return
	}
	if n >= g.max {
		return
	}
	for i := next; i < len(g.items); i++ {
		e.path = append(e.path, i)
		e.grow(i+1, mask|1<<i, n+1, value+g.items[i].value, weight+g.items[i].weight)
		e.path = e.path[:len(e.path)-1]
	}
}
