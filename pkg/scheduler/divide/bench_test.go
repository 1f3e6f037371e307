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
	"fmt"
	"testing"
)

// BenchmarkWebster divides 100 replicas, and then a million, over many
// clusters. The cost should grow about linearly with the cluster count and
// hardly at all with the replica count.
func BenchmarkWebster(b *testing.B) {
	for _, seats := range []int32{100, 1_000_000} {
		for _, n := range []int{100, 1000, 5000} {
			parties := make([]Weighted, n)
			for i := range parties {
				parties[i] = Weighted{Name: fmt.Sprintf("member-%05d", i), Weight: int64(1 + (i*7919)%97), Cap: Unbounded}
				if i%5 == 0 {
					parties[i].Cap = int64(i % 13)
				}
			}
			b.Run(fmt.Sprintf("clusters=%d/replicas=%d", n, seats), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					Webster(seats, parties, oddUID)
				}
			})
		}
	}
}

// BenchmarkDynamicWeight scales a 5000-cluster assignment up by 100 replicas.
func BenchmarkDynamicWeight(b *testing.B) {
	cands := make([]Candidate, 5000)
	var prev int32
	for i := range cands {
		cands[i] = Candidate{Name: fmt.Sprintf("member-%05d", i), Previous: int32(i % 3), Available: int64(i % 50)}
		prev += cands[i].Previous
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DynamicWeight(prev+100, cands, oddUID, false); err != nil {
			b.Fatal(err)
		}
	}
}
