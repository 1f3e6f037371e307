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
	"errors"
	"fmt"
	"testing"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/spread"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// byteReader hands out small numbers from fuzz input, zero once exhausted.
type byteReader []byte

func (r *byteReader) next(n int) int {
	if len(*r) == 0 {
		return 0
	}
	b := (*r)[0]
	*r = (*r)[1:]
	return int(b) % n
}

// decode builds candidates and constraints from fuzz input.
func decode(data []byte) ([]spread.Candidate, []policyv1alpha1.SpreadConstraint, int32, bool) {
	r := byteReader(data)
	n := 1 + r.next(12)
	candidates := make([]spread.Candidate, n)
	for i := range candidates {
		b := builders.NewCluster(fmt.Sprintf("m%02d", i))
		if v := r.next(4); v > 0 {
			b.WithRegion(fmt.Sprintf("r%d", v))
		}
		if v := r.next(3); v > 0 {
			b.WithProvider(fmt.Sprintf("p%d", v))
		}
		if v := r.next(4); v > 0 {
			b.WithLabel("team", fmt.Sprintf("t%d", v))
		}
		var zones []string
		for z, mask := 0, r.next(16); z < 4; z++ {
			if mask&(1<<z) != 0 {
				zones = append(zones, fmt.Sprintf("z%d", z))
			}
		}
		b.WithZones(zones...)
		candidates[i] = spread.Candidate{Cluster: b.Build(), Score: int64(r.next(101)), Available: int64(r.next(21))}
	}
	var constraints []policyv1alpha1.SpreadConstraint
	add := func(c policyv1alpha1.SpreadConstraint) {
		c.MinGroups = r.next(4)
		c.MaxGroups = c.MinGroups + r.next(4)
		if r.next(4) == 0 {
			c.MaxGroups = 0
		}
		constraints = append(constraints, c)
	}
	mask := r.next(32)
	for bit, field := range []policyv1alpha1.SpreadFieldValue{"cluster", "region", "zone", "provider"} {
		if mask&(1<<bit) != 0 {
			add(policyv1alpha1.SpreadConstraint{SpreadByField: field})
		}
	}
	if mask&16 != 0 {
		add(policyv1alpha1.SpreadConstraint{SpreadByLabel: "team"})
	}
	return candidates, constraints, int32(r.next(60)), r.next(2) == 1
}

// FuzzSelect checks that whatever Select returns honours every constraint.
func FuzzSelect(f *testing.F) {
	f.Add([]byte{5, 1, 1, 1, 3, 90, 10, 2, 2, 2, 12, 50, 5, 3, 0, 3, 1, 10, 3, 3, 1, 0, 8, 0, 20, 7, 1, 1, 1, 1, 2, 1, 1, 1, 9, 1})
	f.Add([]byte{11, 3, 2, 1, 15, 7, 7, 1, 1, 2, 6, 99, 0, 2, 0, 0, 0, 30, 30, 31, 2, 2, 0, 3, 2, 0, 1, 1, 40, 1})
	f.Add([]byte{3, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 1, 2, 1, 1, 5, 1})
	f.Fuzz(func(t *testing.T, data []byte) {
		candidates, constraints, replicas, divided := decode(data)
		got, err := spread.Select(candidates, constraints, replicas, divided)
		if err != nil {
			var spreadErr *spread.Error
			if !errors.As(err, &spreadErr) {
				t.Fatalf("error %v is not a *spread.Error", err)
			}
			return
		}
		seen := map[string]bool{}
		var total int64
		for _, c := range got {
			if seen[c.Cluster.Name] {
				t.Fatalf("cluster %s chosen twice", c.Cluster.Name)
			}
			seen[c.Cluster.Name] = true
			total += c.Available
		}
		if divided && len(constraints) > 0 && total < int64(replicas) {
			t.Fatalf("chosen clusters hold %d of %d replicas", total, replicas)
		}
		for _, c := range constraints {
			n := countIn(got, c)
			if n < max(c.MinGroups, 1) || c.MaxGroups > 0 && n > c.MaxGroups {
				t.Fatalf("constraint %+v: %d groups chosen (%v)", c, n, nameList(got))
			}
		}
	})
}

// countIn counts the groups of the constraint the clusters are in; a
// cluster lacking the field counts as a violation by returning -1.
func countIn(cs []spread.Candidate, c policyv1alpha1.SpreadConstraint) int {
	groups := map[string]bool{}
	for _, cand := range cs {
		keys := keysOf(cand.Cluster, c)
		if len(keys) == 0 {
			return -1
		}
		for _, k := range keys {
			groups[k] = true
		}
	}
	return len(groups)
}

func keysOf(cluster *clusterv1alpha1.Cluster, c policyv1alpha1.SpreadConstraint) []string {
	one := func(v string) []string {
		if v == "" {
			return nil
		}
		return []string{v}
	}
	switch {
	case c.SpreadByLabel != "":
		return one(cluster.Labels[c.SpreadByLabel])
	case c.SpreadByField == "region":
		return one(cluster.Spec.Region)
	case c.SpreadByField == "provider":
		return one(cluster.Spec.Provider)
	case c.SpreadByField == "zone":
		return cluster.Spec.Zones
	}
	return []string{cluster.Name}
}
