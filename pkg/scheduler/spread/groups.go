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
	"slices"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// keys returns the groups of dimension d the cluster belongs to: none when
// the field or label is unset, several for a cluster spanning zones. buf
// backs the single-value case.
func (d *dimension) keys(cluster *clusterv1alpha1.Cluster, buf []string) []string {
	buf = buf[:0]
	switch {
	case d.label != "":
		if v, ok := cluster.Labels[d.label]; ok {
			return append(buf, v)
		}
		return buf
	case d.field == policyv1alpha1.SpreadByFieldZone:
		return framework.ClusterZones(cluster, buf)
	case d.field == policyv1alpha1.SpreadByFieldRegion && cluster.Spec.Region != "":
		return append(buf, cluster.Spec.Region)
	case d.field == policyv1alpha1.SpreadByFieldProvider && cluster.Spec.Provider != "":
		return append(buf, cluster.Spec.Provider)
	}
	return buf
}

// index numbers the groups of every dimension and records, once, which
// groups each candidate is in, so that later passes neither touch the
// cluster objects again nor hash group names.
type index struct {
	dims  []dimension
	names [][]string // per dimension: group names by id
	flat  [][]int32  // per dimension: the group ids of all candidates, concatenated
	end   [][]int32  // per dimension: where each candidate's ids end in flat
	base  []int32    // per dimension: first id of its groups in a numbering across dimensions
	total int        // groups across all dimensions
}

func newIndex(cands []Candidate, dims []dimension) *index {
	x := &index{dims: dims, names: make([][]string, len(dims)), flat: make([][]int32, len(dims)),
		end: make([][]int32, len(dims)), base: make([]int32, len(dims))}
	var buf [1]string
	for d := range dims {
		ids := map[string]int32{}
		flat, end := make([]int32, 0, len(cands)), make([]int32, len(cands))
		for i := range cands {
			start := len(flat)
			for _, k := range dims[d].keys(cands[i].Cluster, buf[:0]) {
				id, ok := ids[k]
				if !ok {
					id = int32(len(x.names[d]))
					ids[k] = id
					x.names[d] = append(x.names[d], k)
				}
				if !slices.Contains(flat[start:], id) {
					flat = append(flat, id)
				}
			}
			end[i] = int32(len(flat))
		}
		x.flat[d], x.end[d] = flat, end
		x.base[d] = int32(x.total)
		x.total += len(x.names[d])
	}
	return x
}

// groups returns the ids of the groups of dimension d candidate i is in.
func (x *index) groups(d int, i int32) []int32 {
	var start int32
	if i > 0 {
		start = x.end[d][i-1]
	}
	return x.flat[d][start:x.end[d][i]]
}

// grouped tells whether candidate i is in some group of every dimension.
func (x *index) grouped(i int32) bool {
	for d := range x.dims {
		if len(x.groups(d, i)) == 0 {
			return false
		}
	}
	return true
}

// keepInGroups drops, in place, the candidates not wholly inside the chosen
// groups of dimension d: a cluster spanning several zones stays only if all
// of them are chosen.
func (x *index) keepInGroups(order []int32, d int, chosen []bool) []int32 {
	kept := order[:0]
	for _, ci := range order {
		inside := true
		for _, g := range x.groups(d, ci) {
			inside = inside && chosen[g]
		}
		if inside {
			kept = append(kept, ci)
		}
	}
	return kept
}

// pickClusters picks up to limit (0: no limit) of the ranked candidates so
// that every chosen group keeps a cluster when possible.
func (x *index) pickClusters(cands []Candidate, order []int32, limit int, need int64) []int32 {
	k := len(order)
	if limit > 0 {
		k = min(k, limit)
	}
	if k == len(order) {
		return order
	}
	it := &items{
		available: make([]int64, 0, len(order)),
		covers:    make([]int32, 0, len(order)*len(x.dims)),
		end:       make([]int32, 0, len(order)),
	}
	for _, ci := range order {
		it.available = append(it.available, cands[ci].Available)
		for d := range x.dims {
			for _, g := range x.groups(d, ci) {
				it.covers = append(it.covers, x.base[d]+g)
			}
		}
		it.end = append(it.end, int32(len(it.covers)))
	}
	taken := pick(it, k, x.total, need)
	picked := order[:0]
	for i, ci := range order {
		if taken[i] {
			picked = append(picked, ci)
		}
	}
	return picked
}

// countGroups counts the distinct groups of dimension d the candidates are in.
func (x *index) countGroups(order []int32, d int) int {
	seen := make([]bool, len(x.names[d]))
	n := 0
	for _, ci := range order {
		for _, g := range x.groups(d, ci) {
			if !seen[g] {
				seen[g] = true
				n++
			}
		}
	}
	return n
}
