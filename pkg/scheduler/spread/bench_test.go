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

package spread_test

import (
	"fmt"
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/spread"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// BenchmarkSelect spreads a Divided binding over 2-3 regions and 3-5
// clusters, picked from n feasible clusters in 4 regions.
func BenchmarkSelect(b *testing.B) {
	constraints := []policyv1alpha1.SpreadConstraint{byField(region, 2, 3), byField(cluster, 3, 5)}
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("clusters=%d", n), func(b *testing.B) {
			candidates := make([]spread.Candidate, n)
			for i := range candidates {
				c := builders.NewCluster(fmt.Sprintf("member-%05d", i)).WithRegion(fmt.Sprintf("region-%d", i%4))
				candidates[i] = cand(c, int64(i%2)*100, int64(i*7919%97))
			}
			b.ReportAllocs()
			for b.Loop() {
				if _, err := spread.Select(candidates, constraints, 200, true); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
