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

// The bounded search finds the set enumerate would pick without listing
// sets. A kept set is the forced groups, some items a (ascending) that the
// search passes through, then a last item: before the last one, the set
// must not be kept yet (fewer than min groups, or fewer clusters than the
// target), and the last one must make it kept. So a table over the items,
// from the last to the first, records for each state (groups so far,
// clusters so far capped at the target) the best weight and value still to
// gain, and whether the item at hand is skipped, ends the set, or is taken
// to go on. Reading the table forwards and taking an item whenever that is
// as good as skipping it yields, among the best sets, the one with the
// smallest items first: the one the depth-first enumeration finds first.
//
// Group counts are exact below min. At or above min, when max cannot bind
// (a set still short of the target cannot reach max groups there, as every
// group holds a cluster), they share one row.

// step says what the best completion from a state does with the item.
type step uint8

const (
	stepSkip step = iota
	stepLast
	stepOn
)

// gain is the best weight and value a state can still add.
type gain struct {
	weight, value int64
	ok            bool
}

// beats orders gains: any over none, then higher weight, then higher value.
func (a gain) beats(b gain) bool {
	return a.ok && (!b.ok || a.weight > b.weight || a.weight == b.weight && a.value > b.value)
}

// table is the state space of the bounded search.
type table struct {
	g        *groupSearch
	c0       int   // forced groups
	base     int64 // clusters of the forced groups, capped at the target
	levels   int   // group-count rows
	width    int   // cluster-total columns: base..target
	shareTop bool  // the top row holds every count from min on
}

// bounded returns the best kept set (item indexes ascending), whether any
// set is kept, and whether the table fits in boundedBudget.
func (g *groupSearch) bounded() ([]int, bool, bool) {
	value, _ := g.forcedTotals()
	c0 := len(g.forced)
	if c0 >= g.min && c0 <= g.max && value >= g.target {
		return nil, true, true
	}
	total := value
	for _, it := range g.items {
		total += it.value
	}
	if c0 >= g.max || total < g.target {
		return nil, false, true
	}
	t := &table{g: g, c0: c0, base: min(value, g.target)}
	t.width = int(g.target-t.base) + 1
	t.shareTop = int64(g.max-c0) >= g.target-t.base
	if t.shareTop {
		t.levels = max(g.min-c0, 0) + 1
	} else {
		t.levels = g.max - c0
	}
	if int64(len(g.items))*int64(t.levels)*int64(t.width) > boundedBudget {
		return nil, false, false
	}
	steps, ok := t.fill()
	if !ok {
		return nil, false, true
	}
	return t.read(steps), true, true
}

// next returns the row after taking one more group, and whether it exists.
func (t *table) next(row int) (int, bool) {
	if t.shareTop {
		return min(row+1, t.levels-1), true
	}
	return row + 1, row+1 < t.levels
}

// open tells whether a state is not kept yet, so that the set may grow.
func (t *table) open(row, col int) bool {
	return t.c0+row < t.g.min || t.base+int64(col) < t.g.target
}

// fill computes the table from the last item back, returning each state's
// step and whether the starting state reaches a kept set.
func (t *table) fill() ([]step, bool) {
	g := t.g
	cells := t.levels * t.width
	steps := make([]step, len(g.items)*cells)
	later, here := make([]gain, cells), make([]gain, cells)
	for i := len(g.items) - 1; i >= 0; i-- {
		it := g.items[i]
		for row := range t.levels {
			for col := range t.width {
				best, how := later[row*t.width+col], stepSkip
				sum := t.base + int64(col) + it.value
				if t.c0+row+1 >= g.min && sum >= g.target {
					if last := (gain{weight: it.weight, value: it.value, ok: true}); !best.beats(last) {
						best, how = last, stepLast
					}
				}
				nextRow, exists := t.next(row)
				nextCol := int(min(sum, g.target) - t.base)
				if exists && t.open(nextRow, nextCol) {
					if rest := later[nextRow*t.width+nextCol]; rest.ok {
						on := gain{weight: it.weight + rest.weight, value: it.value + rest.value, ok: true}
						if on.beats(best) || how == stepSkip && !best.beats(on) {
							best, how = on, stepOn
						}
					}
				}
				here[row*t.width+col] = best
				steps[i*cells+row*t.width+col] = how
			}
		}
		later, here = here, later
	}
	return steps, later[0].ok
}

// read follows the steps from the starting state.
func (t *table) read(steps []step) []int {
	cells := t.levels * t.width
	var items []int
	row, col := 0, 0
	for i, it := range t.g.items {
		switch steps[i*cells+row*t.width+col] {
		case stepLast:
			return append(items, i)
		case stepOn:
			items = append(items, i)
			row, _ = t.next(row)
			col = int(min(t.base+int64(col)+it.value, t.g.target) - t.base)
		}
	}
	return items
}
