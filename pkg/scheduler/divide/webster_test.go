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
	"hash/fnv"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"
)

// Concrete UIDs with a known FNV-32a parity.
const (
	oddUID  = "uid-1" // 0x50c45a43
	evenUID = "uid-2" // 0x51c45bd6
)

func TestUIDParity(t *testing.T) {
	t.Parallel()
	for uid, wantOdd := range map[string]bool{oddUID: true, evenUID: false} {
		h := fnv.New32a()
		_, _ = h.Write([]byte(uid))
		if got := h.Sum32()%2 == 1; got != wantOdd {
			t.Fatalf("fnv32a(%q) odd = %v, want %v", uid, got, wantOdd)
		}
	}
}

func parties(weights ...int64) []Weighted {
	out := make([]Weighted, len(weights))
	for i, w := range weights {
		out[i] = Weighted{Name: string(rune('a' + i)), Weight: w, Cap: Unbounded}
	}
	return out
}

func withCaps(ps []Weighted, caps ...int64) []Weighted {
	for i := range ps {
		ps[i].Cap = caps[i]
	}
	return ps
}

func TestWebster(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		seats   int32
		parties []Weighted
		uid     string
		want    []int32
	}{
		{name: "Weights 5:3 with 8 seats split exactly 5/3.", seats: 8, parties: parties(5, 3), want: []int32{5, 3}},
		{name: "Weights 5:3 with 4 seats split 2/2, where largest remainder would give 3/1.", seats: 4, parties: parties(5, 3), want: []int32{2, 2}},
		{name: "Equal weights with an even UID give the extra seat to the smallest name.", seats: 4, parties: parties(1, 1, 1), uid: evenUID, want: []int32{2, 1, 1}},
		{name: "Equal weights with an odd UID give the extra seat to the largest name.", seats: 4, parties: parties(1, 1, 1), uid: oddUID, want: []int32{1, 1, 2}},
		{name: "Equal weights with an empty UID give the extra seat to the smallest name.", seats: 4, parties: parties(1, 1, 1), want: []int32{2, 1, 1}},
		{name: "Tied values go to the party holding fewer seats before any name rule.", seats: 2, parties: parties(3, 1), uid: evenUID, want: []int32{1, 1}},
		{name: "Zero seats give nothing.", seats: 0, parties: parties(4, 2), want: []int32{0, 0}},
		{name: "No parties give an empty result.", seats: 5, parties: nil, want: []int32{}},
		{name: "Zero and negative weights never win a seat.", seats: 3, parties: parties(0, 2, -1), want: []int32{0, 3, 0}},
		{name: "A capped party stops at its cap and the rest go to the others.", seats: 10, parties: withCaps(parties(9, 1, 1), 2, Unbounded, Unbounded), want: []int32{2, 4, 4}},
		{name: "A cap of zero keeps a heavy party out.", seats: 4, parties: withCaps(parties(100, 1), 0, Unbounded), want: []int32{0, 4}},
		{name: "Caps below the seats fill every party and leave seats unassigned.", seats: 10, parties: withCaps(parties(1, 1), 3, 4), want: []int32{3, 4}},
		{name: "Unbounded weights are compared exactly without overflow.", seats: 3, parties: parties(Unbounded, Unbounded-1), want: []int32{2, 1}},
		{name: "Many seats are divided in exact proportion.", seats: 1_000_000, parties: parties(1, 2, 7), want: []int32{100_000, 200_000, 700_000}},
		{name: "Many seats with caps fill the capped party and divide the rest.", seats: 2_000_000_000, parties: withCaps(parties(1, 1, 2), 5, Unbounded, Unbounded), want: []int32{5, 666_666_665, 1_333_333_330}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := Webster(tc.seats, tc.parties, tc.uid)
			if !slices.Equal(got, tc.want) {
				t.Fatalf("Webster(%d) = %v, want %v", tc.seats, got, tc.want)
			}
		})
	}
}

// TestWebsterMatchesReference checks the fast division against a plain
// seat-by-seat one on random inputs, including inputs with large seat counts
// where the proportional first guess does most of the work.
func TestWebsterMatchesReference(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for iter := range 3000 {
		n := rng.IntN(12)
		ps := make([]Weighted, n)
		for i := range ps {
			ps[i] = Weighted{Name: string(rune('a'+rng.IntN(26))) + string(rune('a'+i)), Weight: int64(rng.IntN(20)), Cap: Unbounded}
			switch rng.IntN(4) {
			case 0:
				ps[i].Cap = int64(rng.IntN(30))
			case 1:
				ps[i].Weight = rng.Int64()
			}
		}
		seats := int32(rng.IntN(200))
		uid := []string{"", oddUID, evenUID}[iter%3]
		if got, want := Webster(seats, ps, uid), referenceWebster(seats, ps, uid); !slices.Equal(got, want) {
			t.Fatalf("Webster(%d, %+v, %q) = %v, reference gives %v", seats, ps, uid, got, want)
		}
	}
}

// referenceWebster gives out seats one at a time, scanning every party with
// big-number arithmetic.
func referenceWebster(seats int32, ps []Weighted, uid string) []int32 {
	larger := false
	if uid != "" {
		h := fnv.New32a()
		_, _ = h.Write([]byte(uid))
		larger = h.Sum32()%2 == 1
	}
	got := make([]int32, len(ps))
	value := func(i int) *big.Rat { return big.NewRat(ps[i].Weight, 2*int64(got[i])+1) }
	for range seats {
		best := -1
		for i, p := range ps {
			if p.Weight <= 0 || int64(got[i]) >= p.Cap {
				continue
			}
			if best < 0 {
				best = i
				continue
			}
			c := value(i).Cmp(value(best))
			switch {
			case c > 0:
				best = i
			case c < 0:
			case got[i] != got[best]:
				if got[i] < got[best] {
					best = i
				}
			case p.Name != ps[best].Name:
				if (p.Name > ps[best].Name) == larger {
					best = i
				}
			}
		}
		if best < 0 {
			break
		}
		got[best]++
	}
	return got
}
