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

// Package divide splits a workload's replicas between member clusters.
//
// Every split is built on Webster's method (also called Sainte-Laguë), a
// highest-averages rule: seats are handed out one at a time, and each goes to
// the party whose weight divided by 2·seats+1 is largest, seats being what the
// party already holds. The package is pure: it sees names, numbers and the
// binding UID, never the API server.
//
// Results list clusters sorted by name. The divided modes (StaticWeight,
// DynamicWeight, Aggregated) leave out clusters that get no replicas and
// return nil for zero replicas; Duplicated keeps every name, even with zero
// replicas, because each cluster still receives the resource. Results do not
// depend on the order of the candidates.
package divide

import (
	"hash/fnv"
	"math"
	"math/bits"
)

// Unbounded, used as a Cap or a Candidate's Available, means "no limit".
const Unbounded int64 = math.MaxInt64

// Weighted is one party in a Webster division.
type Weighted struct {
	// Name identifies the party and breaks ties; names should be unique.
	Name string
	// Weight is the party's claim. A weight of zero or less never wins a seat.
	Weight int64
	// Cap is the most seats the party may hold. Zero or less means none;
	// Unbounded, or any value at least the number of seats, means no limit.
	// A party that reaches its cap drops out and the others share the rest.
	Cap int64
}

// Webster hands out seats to parties by Webster's method and returns the seats
// each party won, index-aligned with parties.
//
// A party's next seat is worth Weight/(2·held+1); the most valuable goes
// first. Values are compared exactly, by cross-multiplying in 128 bits. Equal
// values go to the party holding fewer seats, then by name: when the FNV-32a
// hash of uid is odd the larger name wins, when it is even or uid is empty the
// smaller one does.
//
// When the caps add up to fewer than seats, every party gets its cap and the
// remaining seats stay unassigned; callers that need all seats placed compare
// the sum themselves. Cost is at most O(n log n) in the number of parties,
// whatever the seat count: a proportional first guess, trimmed until it is
// exact, places most seats and a heap places the last few.
func Webster(seats int32, parties []Weighted, uid string) []int32 {
	w := newWebster(int64(seats), parties, uid)
	w.prefill()
	w.fillByHeap()
	out := make([]int32, len(parties))
	for i, g := range w.got {
		out[i] = int32(g)
	}
	return out
}

type webster struct {
	parties      []Weighted
	seats        int64
	caps         []int64 // effective caps, between 0 and seats
	got          []int64 // seats held so far
	preferLarger bool    // name tie-break direction
}

func newWebster(seats int64, parties []Weighted, uid string) *webster {
	w := &webster{
		parties:      parties,
		seats:        max(seats, 0),
		caps:         make([]int64, len(parties)),
		got:          make([]int64, len(parties)),
		preferLarger: preferLargerName(uid),
	}
	for i, p := range parties {
		if p.Weight > 0 {
			w.caps[i] = min(max(p.Cap, 0), w.seats)
		}
	}
	return w
}

// preferLargerName reports whether name ties go to the larger name for uid.
func preferLargerName(uid string) bool {
	if uid == "" {
		return false
	}
	h := fnv.New32a()
	_, _ = h.Write([]byte(uid))
	return h.Sum32()%2 == 1
}

// ahead reports whether seat number si of party i ranks before seat number sk
// of party k (seat numbers count from zero).
func (w *webster) ahead(i int, si int64, k int, sk int64) bool {
	// Weight_i/(2si+1) against Weight_k/(2sk+1), cross-multiplied.
	ah, al := bits.Mul64(uint64(w.parties[i].Weight), uint64(2*sk+1))
	bh, bl := bits.Mul64(uint64(w.parties[k].Weight), uint64(2*si+1))
	if ah != bh {
		return ah > bh
	}
	if al != bl {
		return al > bl
	}
	if si != sk {
		return si < sk
	}
	if ni, nk := w.parties[i].Name, w.parties[k].Name; ni != nk {
		return (ni > nk) == w.preferLarger
	}
	return i < k
}

// prefill gives every party about the share it is sure to win, so that only
// about one seat per party is left for the heap. The guess is made in
// floating point from a common divisor, then trimmed until it is exactly a
// set of best-ranked seats.
//
// The seats worth more than a threshold t always come first, whatever the
// tie-breaks. Party i has about (Weight_i/t+1)/2 of them, so with
// t = ΣWeight/(2·seats−n) they number about seats. Parties whose count
// reaches their cap are fixed at it and t is recomputed for the others.
func (w *webster) prefill() {
	active := make([]int, 0, len(w.parties))
	var weightSum float64
	for i := range w.parties {
		if w.caps[i] > 0 {
			active = append(active, i)
			weightSum += float64(w.parties[i].Weight)
		}
	}
	left := w.seats // seats not yet taken by parties fixed at their cap
	threshold := math.Inf(1)
	for len(active) > 0 {
		denom := 2*float64(left) - float64(len(active))
		if denom <= 0 || weightSum <= 0 {
			break
		}
		t := weightSum / denom
		if !(t < threshold) {
			break
		}
		threshold = t
		kept := active[:0]
		for _, i := range active {
			n := math.Floor((float64(w.parties[i].Weight)/t + 1) / 2)
			if n >= float64(w.caps[i]) {
				w.got[i] = w.caps[i]
				left -= w.caps[i]
				weightSum -= float64(w.parties[i].Weight)
				continue
			}
			w.got[i] = int64(max(n, 0))
			kept = append(kept, i)
		}
		if len(kept) == len(active) {
			break
		}
		active = kept
	}
	w.trim()
}

// trim takes back held seats, worst first, until no more than w.seats are
// held and every held seat ranks before every open one. Then the held seats
// are exactly the ones the seat-by-seat method would have handed out first.
func (w *webster) trim() {
	var total int64
	held := make([]int, 0, len(w.got))
	next := -1 // party with the best open seat
	for i, g := range w.got {
		total += g
		if g > 0 {
			held = append(held, i)
		}
		if g < w.caps[i] && (next < 0 || w.ahead(i, g, next, w.got[next])) {
			next = i
		}
	}
	// Root of the heap: the party whose last held seat ranks worst.
	worse := func(a, b int) bool { return w.ahead(b, w.got[b]-1, a, w.got[a]-1) }
	heapify(held, worse)
	for len(held) > 0 {
		i := held[0]
		if total <= w.seats && (next < 0 || w.ahead(i, w.got[i]-1, next, w.got[next])) {
			return
		}
		w.got[i]--
		total--
		if next < 0 || w.ahead(i, w.got[i], next, w.got[next]) {
			next = i
		}
		if w.got[i] == 0 {
			held = pop(held, worse)
			continue
		}
		siftDown(held, 0, worse)
	}
}

// fillByHeap hands out the seats prefill left, one at a time, best first.
func (w *webster) fillByHeap() {
	remaining := w.seats
	open := make([]int, 0, len(w.parties))
	for i, g := range w.got {
		remaining -= g
		if g < w.caps[i] {
			open = append(open, i)
		}
	}
	// Root of the heap: the party whose next seat ranks best.
	better := func(a, b int) bool { return w.ahead(a, w.got[a], b, w.got[b]) }
	heapify(open, better)
	for remaining > 0 && len(open) > 0 {
		i := open[0]
		w.got[i]++
		remaining--
		if w.got[i] == w.caps[i] {
			open = pop(open, better)
			continue
		}
		siftDown(open, 0, better)
	}
}

// The three helpers below keep h a binary heap whose root x satisfies
// first(x, y) for every other entry y.

func heapify(h []int, first func(a, b int) bool) {
	for j := len(h)/2 - 1; j >= 0; j-- {
		siftDown(h, j, first)
	}
}

func pop(h []int, first func(a, b int) bool) []int {
	h[0] = h[len(h)-1]
	h = h[:len(h)-1]
	siftDown(h, 0, first)
	return h
}

func siftDown(h []int, j int, first func(a, b int) bool) {
	for {
		top := j
		if c := 2*j + 1; c < len(h) && first(h[c], h[top]) {
			top = c
		}
		if c := 2*j + 2; c < len(h) && first(h[c], h[top]) {
			top = c
		}
		if top == j {
			return
		}
		h[j], h[top] = h[top], h[j]
		j = top
	}
}
