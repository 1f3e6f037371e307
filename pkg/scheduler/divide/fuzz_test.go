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
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// decodeCandidates reads three bytes per candidate: previous replicas,
// available replicas (255 meaning Unbounded) and static weight.
func decodeCandidates(data []byte) []Candidate {
	var out []Candidate
	for i := 0; i+2 < len(data) && len(out) < 40; i += 3 {
		avail := int64(data[i+1] % 32)
		if data[i+1] == 255 {
			avail = Unbounded
		}
		out = append(out, Candidate{
			Name:      fmt.Sprintf("m%02d", (len(out)*7)%40),
			Previous:  int32(data[i] % 16),
			Available: avail,
			Weight:    int64(data[i+2] % 8),
		})
	}
	return out
}

// FuzzDivide checks the invariants every division must keep. Without -fuzz it
// runs over the seeds below as an ordinary test.
func FuzzDivide(f *testing.F) {
	f.Add([]byte{0, 6, 1, 0, 2, 1}, uint16(4), "", true)
	f.Add([]byte{2, 1, 5, 2, 3, 3}, uint16(8), oddUID, false)
	f.Add([]byte{6, 0, 1, 2, 100, 1}, uint16(4), evenUID, false)
	f.Add([]byte{3, 0, 0, 1, 100, 0, 0, 50, 0}, uint16(4), oddUID, false)
	f.Add([]byte{1, 1, 1, 1, 1, 1, 1, 1, 1}, uint16(10), "x", false)
	f.Add([]byte{0, 255, 1, 4, 10, 2, 9, 3, 7, 1, 31, 0}, uint16(1500), evenUID, true)
	f.Add([]byte{15, 31, 7, 15, 31, 7, 15, 31, 7, 15, 31, 7}, uint16(60000), oddUID, false)
	f.Add([]byte{}, uint16(3), "", false)
	f.Fuzz(func(t *testing.T, data []byte, n uint16, uid string, fresh bool) {
		cands := decodeCandidates(data)
		replicas := int32(n % 5000)
		reversed := slices.Clone(cands)
		slices.Reverse(reversed)

		static := StaticWeight(replicas, cands, uid)
		checkShape(t, "StaticWeight", static)
		if len(cands) > 0 && sum(static) != int64(replicas) {
			t.Fatalf("StaticWeight placed %d of %d replicas: %v", sum(static), replicas, static)
		}
		if again := StaticWeight(replicas, reversed, uid); !cmp.Equal(static, again) {
			t.Fatalf("StaticWeight depends on candidate order: %v then %v", static, again)
		}

		for name, fn := range map[string]func(int32, []Candidate, string, bool) ([]workv1alpha2.TargetCluster, error){
			"DynamicWeight": DynamicWeight, "Aggregated": Aggregated,
		} {
			got, err := fn(replicas, cands, uid, fresh)
			again, againErr := fn(replicas, reversed, uid, fresh)
			if !cmp.Equal(got, again) || fmt.Sprint(err) != fmt.Sprint(againErr) {
				t.Fatalf("%s depends on candidate order: %v, %v then %v, %v", name, got, err, again, againErr)
			}
			checkCapacity(t, name, replicas, cands, fresh, got, err)
		}

		parties := make([]Weighted, len(cands))
		for i, c := range cands {
			parties[i] = Weighted{Name: c.Name, Weight: c.Weight, Cap: c.Available}
		}
		if got, want := Webster(replicas, parties, uid), referenceWebster(replicas, parties, uid); !slices.Equal(got, want) {
			t.Fatalf("Webster(%d, %+v) = %v, reference gives %v", replicas, parties, got, want)
		}
	})
}

// checkCapacity checks a DynamicWeight or Aggregated result against the
// candidates it came from.
func checkCapacity(t *testing.T, name string, replicas int32, cands []Candidate, fresh bool, got []workv1alpha2.TargetCluster, err error) {
	t.Helper()
	var prevSum, availSum, bothSum int64
	for _, c := range cands {
		prevSum += int64(c.Previous)
		availSum = addCapped(availSum, c.Available)
		bothSum = addCapped(bothSum, addCapped(c.Available, int64(c.Previous)))
	}
	needed, room := int64(replicas), bothSum
	if !fresh {
		needed, room = int64(replicas)-prevSum, availSum
	}
	if replicas > 0 && needed > room {
		var capErr *InsufficientCapacityError
		if !errors.As(err, &capErr) || capErr.Needed != needed || capErr.Available != room || got != nil {
			t.Fatalf("%s: got %v, %v; want InsufficientCapacityError{%d, %d}", name, got, err, needed, room)
		}
		return
	}
	if err != nil {
		t.Fatalf("%s: unexpected error %v", name, err)
	}
	checkShape(t, name, got)
	if sum(got) != int64(replicas) {
		t.Fatalf("%s placed %d of %d replicas: %v", name, sum(got), replicas, got)
	}
	placed := map[string]int32{}
	for _, tc := range got {
		placed[tc.Name] = tc.Replicas
	}
	for _, c := range cands {
		n := int64(placed[c.Name])
		if n > addCapped(c.Available, int64(c.Previous)) {
			t.Fatalf("%s gave %s %d replicas, beyond previous %d + available %d", name, c.Name, n, c.Previous, c.Available)
		}
		if !fresh && int64(replicas) >= prevSum && n < int64(c.Previous) {
			t.Fatalf("%s took replicas from %s while scaling up: %v", name, c.Name, got)
		}
		if !fresh && int64(replicas) <= prevSum && n > int64(c.Previous) {
			t.Fatalf("%s added replicas to %s while scaling down: %v", name, c.Name, got)
		}
	}
}

// checkShape checks that a result is sorted by name with no empty entries.
func checkShape(t *testing.T, name string, got []workv1alpha2.TargetCluster) {
	t.Helper()
	for i, tc := range got {
		if tc.Replicas <= 0 {
			t.Fatalf("%s listed %s with %d replicas", name, tc.Name, tc.Replicas)
		}
		if i > 0 && got[i-1].Name >= tc.Name {
			t.Fatalf("%s result is not sorted by name: %v", name, got)
		}
	}
}

func sum(tcs []workv1alpha2.TargetCluster) int64 {
	var s int64
	for _, tc := range tcs {
		s += int64(tc.Replicas)
	}
	return s
}
