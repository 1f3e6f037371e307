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
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// keptSet is a set the reference search keeps, in the order found.
type keptSet struct {
	groups        []searchGroup
	weight, value int64
	found         int
}

// referenceChoice chooses as the rule in search.go reads, literally: list
// every kept set, sort them best first, then walk them replacing the
// choice by any that leads it.
func referenceChoice(g *groupSearch) []string {
	var kept []keptSet
	path := slices.Clone(g.forced)
	var walk func(next int, weight, value int64)
	walk = func(next int, weight, value int64) {
		if len(path) >= g.min && len(path) <= g.max && value >= g.target {
			kept = append(kept, keptSet{groups: slices.Clone(path), weight: weight, value: value, found: len(kept)})
			return
		}
		if len(path) >= g.max {
			return
		}
		for i := next; i < len(g.items); i++ {
			path = append(path, g.items[i])
			walk(i+1, weight+g.items[i].weight, value+g.items[i].value)
			path = path[:len(path)-1]
		}
	}
	var weight, value int64
	for _, f := range g.forced {
		weight += f.weight
		value += f.value
	}
	walk(0, weight, value)
	if len(kept) == 0 {
		return nil
	}
	for i := range kept {
		slices.SortFunc(kept[i].groups, func(a, b searchGroup) int {
			if c := cmp.Compare(b.weight, a.weight); c != 0 {
				return c
			}
			return strings.Compare(a.name, b.name)
		})
	}
	slices.SortFunc(kept, func(a, b keptSet) int {
		if c := cmp.Compare(b.weight, a.weight); c != 0 {
			return c
		}
		if c := cmp.Compare(b.value, a.value); c != 0 {
			return c
		}
		return cmp.Compare(a.found, b.found)
	})
	choice := kept[0].groups
	for _, k := range kept[1:] {
		if len(k.groups) < len(choice) && slices.EqualFunc(k.groups, choice[:len(k.groups)],
			func(a, b searchGroup) bool { return a.name == b.name }) {
			choice = k.groups
		}
	}
	return groupNames(choice)
}

func groupNames(gs []searchGroup) []string {
	if gs == nil {
		return nil
	}
	names := make([]string, len(gs))
	for i, g := range gs {
		names[i] = g.name
	}
	return names
}

// randomSearch draws a search with items groups and few distinct values
// and weights, so that ties are common.
func randomSearch(r *rand.Rand, items int) *groupSearch {
	forced := r.IntN(3)
	groups := make([]searchGroup, forced+items)
	for i, name := range r.Perm(len(groups)) {
		groups[i] = searchGroup{id: int32(i), name: fmt.Sprintf("g%02d", name), value: 1 + r.Int64N(4),
			weight: []int64{0, 5, 1000, 1005, 2000, -3}[r.IntN(6)]}
	}
	g := &groupSearch{forced: groups[:forced], items: groups[forced:], min: 1 + r.IntN(4), target: 1 + r.Int64N(14)}
	g.max = g.min + r.IntN(4)
	if r.IntN(3) == 0 {
		g.max = len(groups)
	}
	lineUp(g.items)
	return g
}

func describe(g *groupSearch) string {
	return fmt.Sprintf("forced %v items %v min %d max %d target %d", g.forced, g.items, g.min, g.max, g.target)
}

// TestSearchFollowsTheReference compares the enumeration (used up to
// exhaustiveLimit groups) and the bounded search (used beyond) with the
// literal reading of the rule on seeded random inputs, a few of them past
// exhaustiveLimit.
func TestSearchFollowsTheReference(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	for round := range 3000 {
		items := r.IntN(13)
		if round%100 == 0 {
			items = exhaustiveLimit + 1 + r.IntN(2)
		}
		g := randomSearch(r, items)
		want := referenceChoice(g)
		var got []string
		if best, kept, ok := g.enumerate(); ok {
			got = groupNames(g.settle(best, kept))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %s: enumeration chose %v, reference %v", round, describe(g), got, want)
		}
		got = nil
		best, ok, fits := g.bounded()
		if !fits {
			t.Fatalf("round %d: %s: the bounded search does not fit its budget", round, describe(g))
		}
		if ok {
			got = groupNames(g.settle(best, g.keeps))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("round %d: %s: bounded search chose %v, reference %v", round, describe(g), got, want)
		}
	}
}

// TestGreedyFindsASetWheneverOneExists checks the fallback on seeded
// random inputs: it finds a set meeting the bounds and the target exactly
// when the search does, and on these inputs usually the same one.
func TestGreedyFindsASetWheneverOneExists(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 3000 {
		g := randomSearch(r, r.IntN(12))
		want := referenceChoice(g)
		items, ok := g.greedy()
		if ok != (want != nil) {
			t.Fatalf("round %d: %s: greedy found a set: %v, the search: %v", round, describe(g), ok, want != nil)
		}
		if !ok {
			continue
		}
		value, _ := g.forcedTotals()
		for _, i := range items {
			value += g.items[i].value
		}
		if n := len(g.forced) + len(items); n < g.min || n > g.max || value < g.target {
			t.Fatalf("round %d: %s: greedy chose %d groups holding %d", round, describe(g), n, value)
		}
	}
}

func TestSearchChoices(t *testing.T) {
	t.Parallel()
	ids := map[string]int32{}
	group := func(name string, value, weight int64) searchGroup {
		if _, ok := ids[name]; !ok {
			ids[name] = int32(len(ids))
		}
		return searchGroup{id: ids[name], name: name, value: value, weight: weight}
	}
	tests := []struct {
		name   string
		search groupSearch
		want   []string
	}{
		{
			name: "Groups are added only until the target is met, not up to max.",
			search: groupSearch{items: []searchGroup{group("a", 4, 10), group("b", 4, 10), group("c", 4, 10)},
				min: 2, max: 3, target: 2},
			want: []string{"a", "b"},
		},
		{
			name: "More groups are taken when the target needs them.",
			search: groupSearch{items: []searchGroup{group("a", 4, 10), group("b", 4, 10), group("c", 4, 10)},
				min: 2, max: 3, target: 9},
			want: []string{"a", "b", "c"},
		},
		{
			name: "Among sets of equal weight the one with more clusters wins.",
			search: groupSearch{items: []searchGroup{group("small", 1, 10), group("big", 3, 10), group("other", 1, 10)},
				min: 2, max: 2, target: 2},
			want: []string{"big", "other"},
		},
		{
			name: "Ties in weight and clusters go to the set found first, which lines groups up by name.",
			search: groupSearch{items: []searchGroup{group("r3", 2, 7), group("r1", 2, 7), group("r2", 2, 7)},
				min: 1, max: 1, target: 1},
			want: []string{"r1"},
		},
		{
			// Search order is light (1 cluster), heavy (2). {light, heavy} is
			// found first and weighs most, but listed by weight it starts
			// with heavy, which is kept on its own and so replaces it.
			name: "A kept set leading the winner in weight order replaces it.",
			search: groupSearch{items: []searchGroup{group("light", 1, 5), group("heavy", 2, 50)},
				min: 1, max: 2, target: 2},
			want: []string{"heavy"},
		},
		{
			name: "Without the replacement the heavier set would stand when its lead is not kept alone.",
			search: groupSearch{items: []searchGroup{group("light", 1, 50), group("heavy", 2, 5)},
				min: 1, max: 2, target: 2},
			want: []string{"light", "heavy"},
		},
		{
			name: "Forced groups are in every set and count toward min and the target.",
			search: groupSearch{forced: []searchGroup{group("kept", 1, 0)},
				items: []searchGroup{group("a", 1, 10), group("b", 1, 20)}, min: 2, max: 3, target: 2},
			want: []string{"b", "kept"},
		},
		{
			name: "No set within max groups reaching the target gives nothing.",
			search: groupSearch{items: []searchGroup{group("a", 1, 10), group("b", 1, 10), group("c", 1, 10)},
				min: 1, max: 2, target: 3},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			g := tt.search
			lineUp(g.items)
			if got := groupNames(g.choose()); !slices.Equal(got, tt.want) {
				t.Errorf("choose() = %v, want %v", got, tt.want)
			}
			if got := referenceChoice(&g); !slices.Equal(got, tt.want) {
				t.Errorf("reference = %v, want %v", got, tt.want)
			}
		})
	}
}

// FuzzSearchAgrees checks on fuzz input that the enumeration and the
// bounded search choose what the literal reading of the rule chooses.
func FuzzSearchAgrees(f *testing.F) {
	f.Add([]byte{1, 5, 2, 3, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 2, 1, 6})
	f.Add([]byte{0, 12, 0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 3, 0, 9})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func(n int) int {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return int(b) % n
		}
		forced, items := next(3), next(exhaustiveLimit+1)
		groups := make([]searchGroup, forced+items)
		shift := next(len(groups) + 1)
		for i := range groups {
			groups[i] = searchGroup{id: int32(i), name: fmt.Sprintf("g%02d", (i+shift)%len(groups)),
				value: 1 + int64(next(5)), weight: []int64{0, 5, 1000, 1005, 2000, -3}[next(6)]}
		}
		g := &groupSearch{forced: groups[:forced], items: groups[forced:], min: 1 + next(4), target: 1 + int64(next(20))}
		g.max = g.min + next(4)
		if next(3) == 0 {
			g.max = max(g.min, len(groups))
		}
		lineUp(g.items)
		want := referenceChoice(g)
		var got []string
		if best, kept, ok := g.enumerate(); ok {
			got = groupNames(g.settle(best, kept))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: enumeration chose %v, reference %v", describe(g), got, want)
		}
		got = nil
		if best, ok, fits := g.bounded(); !fits {
			t.Fatalf("%s: the bounded search does not fit its budget", describe(g))
		} else if ok {
			got = groupNames(g.settle(best, g.keeps))
		}
		if !slices.Equal(got, want) {
			t.Fatalf("%s: bounded search chose %v, reference %v", describe(g), got, want)
		}
	})
}
