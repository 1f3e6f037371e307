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

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// selection is what choosing the groups of any dimension needs besides
// the dimension's own constraint.
type selection struct {
	clusterMin   int // the cluster constraint's minGroups; 1 without one
	clusterLimit int // its maxGroups; 0: no limit
	replicas     int32
	divided      bool
}

// chooseGroups picks the groups of dimension d to keep, among those of the
// candidates in order (ranked best first), as search.go describes. Groups
// needed to keep every group chosen for a broader constraint alive are
// forced into the choice first, best weighted first.
func (x *index) chooseGroups(cands []Candidate, order []int32, d int, sel *selection) ([]bool, error) {
	dim := &x.dims[d]
	n := len(x.names[d])
	rule := newScoreRule(sel.replicas, sel.divided, dim.min)
	scores := make([]groupScore, n)
	values := make([]int64, n)
	covers := make([][]int32, n)
	var ids []int32
	for _, ci := range order {
		for _, g := range x.groups(d, ci) {
			if values[g] == 0 {
				ids = append(ids, g)
			}
			values[g]++
			rule.add(&scores[g], &cands[ci])
			for j := range d {
				for _, h := range x.groups(j, ci) {
					if p := x.base[j] + h; !slices.Contains(covers[g], p) {
						covers[g] = append(covers[g], p)
					}
				}
			}
		}
	}
	if len(ids) < dim.min {
		return nil, failf("the number of feasible %s (%d) is less than minGroups %d", dim.plural, len(ids), dim.min)
	}
	if sel.clusterLimit > 0 && dim.field != policyv1alpha1.SpreadByFieldZone && sel.clusterLimit < dim.min {
		return nil, failf("spreading over at least %d %s needs at least %d clusters, but the cluster spread constraint allows at most %d",
			dim.min, dim.plural, dim.min, sel.clusterLimit)
	}
	groups := make([]searchGroup, len(ids))
	for i, g := range ids {
		groups[i] = searchGroup{id: g, name: x.names[d][g], value: values[g], weight: rule.value(&scores[g])}
	}
	limit := len(ids)
	if dim.max > 0 {
		limit = min(limit, dim.max)
	}
	search := groupSearch{min: dim.min, max: limit, target: int64(sel.clusterMin)}
	search.forced, search.items = forceCover(groups, covers, x.total)
	if len(search.forced) > limit {
		return nil, failf("keeping every group chosen for a broader spread constraint needs %d %s, more than maxGroups %d",
			len(search.forced), dim.plural, limit)
	}
	lineUp(search.items)
	picked := search.choose()
	if picked == nil {
		return nil, failf("no %d to %d %s hold together the %d clusters the cluster spread constraint's minGroups asks for",
			dim.min, limit, dim.plural, sel.clusterMin)
	}
	chosen := make([]bool, n)
	for _, g := range picked {
		chosen[g.id] = true
	}
	return chosen, nil
}

// forceCover splits the groups into those that must be chosen so that each
// group of a broader dimension (an id below idSpace in covers) keeps one,
// taken by weight descending and then name, and the others.
func forceCover(groups []searchGroup, covers [][]int32, idSpace int) (forced, rest []searchGroup) {
	covered := make([]bool, idSpace)
	uncovered := 0
	for _, g := range groups {
		for _, p := range covers[g.id] {
			if !covered[p] {
				covered[p] = true
				uncovered++
			}
		}
	}
	if uncovered == 0 {
		return nil, groups
	}
	clear(covered)
	ordered := slices.Clone(groups)
	slices.SortFunc(ordered, byWeight)
	for _, g := range ordered {
		fresh := false
		for _, p := range covers[g.id] {
			if !covered[p] {
				covered[p], fresh = true, true
			}
		}
		if fresh {
			forced = append(forced, g)
		} else {
			rest = append(rest, g)
		}
	}
	return forced, rest
}
