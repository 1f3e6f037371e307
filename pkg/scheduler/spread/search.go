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

// The groups of one dimension are chosen as Karmada chooses regions.
//
// Groups are lined up by value (their number of clusters) ascending, then
// weight (their score, see scoreRule) descending, then name. Sets of groups
// are grown in that order, depth first, each set only with groups after its
// last one. A set is kept as soon as it has between min and max groups and
// its clusters reach the target (the cluster constraint's minGroups), and
// is then not grown further. Of the kept sets, the one with the highest
// total weight wins, then the one with more clusters, then the one found
// first. Finally, listing the winner's groups by weight descending and name,
// its shortest leading part that is itself a kept set replaces it.
//
// Enumerating sets explodes with many groups, so up to exhaustiveLimit
// groups they are enumerated as described; beyond, a table over (groups
// taken, clusters held) finds the same winner (bounded.go), and when that
// table would exceed boundedBudget cells, a greedy choice is used
// (greedy.go), which may then differ from Karmada's.

// exhaustiveLimit is the most groups, forced ones aside, whose sets are
// enumerated one by one: at most 2^16 sets, about a millisecond.
const exhaustiveLimit = 16

// boundedBudget caps the cells (groups x group counts x cluster totals) of
// the table the bounded search fills: a byte each, and about 10ns each, so
// at most about 10ms. 5000 groups fit with a target of 50 clusters.
const boundedBudget = 1 << 20

// searchGroup is a group of the dimension being chosen.
type searchGroup struct {
	id     int32 // within its dimension
	name   string
	value  int64 // clusters in the group
	weight int64 // the group's score
}

// groupSearch is the choice of the groups of one dimension. The forced
// groups keep the groups chosen for broader constraints alive; they are in
// every set, so sets are grown from them rather than from nothing.
type groupSearch struct {
	forced   []searchGroup
	items    []searchGroup // the others, in search order (see lineUp)
	min, max int           // groups in a set, forced ones included; max > 0
	target   int64         // clusters a set must hold
}

// lineUp sorts groups into search order: value ascending, then weight
// descending, then name.
func lineUp(groups []searchGroup) {
	slices.SortFunc(groups, func(a, b searchGroup) int {
		if c := cmp.Compare(a.value, b.value); c != 0 {
			return c
		}
		if c := cmp.Compare(b.weight, a.weight); c != 0 {
			return c
		}
		return strings.Compare(a.name, b.name)
	})
}

// forcedTotals returns the value and weight of the forced groups.
func (g *groupSearch) forcedTotals() (value, weight int64) {
	for _, f := range g.forced {
		value += f.value
		weight += f.weight
	}
	return value, weight
}

// choose returns the chosen groups, listed by weight descending and name,
// or nil when no set meets the bounds and the target.
func (g *groupSearch) choose() []searchGroup {
	if len(g.items) <= exhaustiveLimit {
		best, kept, ok := g.enumerate()
		if !ok {
			return nil
		}
		return g.settle(best, kept)
	}
	best, ok, fits := g.bounded()
	if !fits {
		best, ok = g.greedy()
		if !ok {
			return nil
		}
		return g.members(best)
	}
	if !ok {
		return nil
	}
	return g.settle(best, g.keeps)
}

// keeps tells whether the search keeps the set of the forced groups and
// the given items (indexes ascending): it meets the bounds and the target,
// and the set without its last item (the one it was grown from) does not.
func (g *groupSearch) keeps(items []int) bool {
	n := len(g.forced) + len(items)
	sum, _ := g.forcedTotals()
	for _, i := range items {
		sum += g.items[i].value
	}
	if n < g.min || n > g.max || sum < g.target {
		return false
	}
	if len(items) == 0 {
		return true
	}
	grownFrom := sum - g.items[items[len(items)-1]].value
	return n-1 < g.min || grownFrom < g.target
}

// members lists the forced groups and the given items by weight descending,
// then name.
func (g *groupSearch) members(items []int) []searchGroup {
	out := slices.Clone(g.forced)
	for _, i := range items {
		out = append(out, g.items[i])
	}
	slices.SortFunc(out, byWeight)
	return out
}

// byWeight orders groups by weight descending, then name.
func byWeight(a, b searchGroup) int {
	if c := cmp.Compare(b.weight, a.weight); c != 0 {
		return c
	}
	return strings.Compare(a.name, b.name)
}

// settle replaces the winning set by its shortest leading part, in weight
// order, that is a kept set itself. (Karmada walks the kept sets from best
// to worst and takes each that leads the current choice; as every leading
// part holds fewer clusters than the winner, they all come after it, and the
// walk ends on the shortest.)
func (g *groupSearch) settle(best []int, kept func(items []int) bool) []searchGroup {
	all := g.members(best)
	index := make(map[int32]int, len(best))
	for _, i := range best {
		index[g.items[i].id] = i
	}
	var items []int
	forced := 0
	for n := 1; n < len(all); n++ {
		if i, ok := index[all[n-1].id]; ok {
			items = append(items, i)
		} else {
			forced++
		}
		if forced < len(g.forced) {
			continue
		}
		sorted := slices.Clone(items)
		slices.Sort(sorted)
		if kept(sorted) {
			return all[:n]
		}
	}
	return all
}
