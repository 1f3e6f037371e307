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

// Package spread chooses, among the feasible clusters, the ones a binding
// uses so that its spread constraints hold: clusters are grouped by
// cluster, region, zone, provider or a label; each constraint asks for
// between minGroups and maxGroups groups.
//
// The choice is deterministic and follows Karmada's for regions, applied
// to every group field. Clusters are ranked by score, then available
// replicas, then name. Group constraints are applied from the broadest
// field to the narrowest (provider, region, zone, then labels in the order
// given). Each scores its groups as Karmada scores regions (score.go) and
// adds groups only until the cluster constraint's minGroups is met, not up
// to its own maxGroups (search.go); groups needed to keep a group chosen by
// an earlier constraint alive come first. Clusters not wholly inside the
// chosen groups are dropped: a cluster spanning several zones counts in
// each and stays only if all of them are chosen. The cluster constraint
// then takes the best cluster of every chosen group and fills up to its
// maxGroups by rank. Without group constraints, for Divided scheduling,
// small picks are swapped for bigger clusters until the replicas fit, as
// Karmada does when spreading by cluster alone.
package spread

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// Candidate is a feasible cluster with its score and how many more replicas
// of the binding it can run.
type Candidate struct {
	Cluster   *clusterv1alpha1.Cluster
	Score     int64
	Available int64
}

// Error says why the constraints cannot be met. Its message is meant for
// the binding's Scheduled condition.
type Error struct {
	Reason string
}

// Error returns the reason.
func (e *Error) Error() string {
	return e.Reason
}

func failf(format string, args ...any) error {
	return &Error{Reason: fmt.Sprintf(format, args...)}
}

// Select returns the candidates to use. Without constraints it returns
// candidates unchanged; otherwise it returns a new slice in rank order.
// When divided is true the chosen clusters' available replicas must add up
// to replicas. Errors are *Error.
func Select(candidates []Candidate, constraints []policyv1alpha1.SpreadConstraint,
	replicas int32, divided bool) ([]Candidate, error) {
	if len(constraints) == 0 {
		return candidates, nil
	}
	byCluster, dims, err := parseConstraints(constraints)
	if err != nil {
		return nil, err
	}
	var need int64
	if divided && replicas > 0 {
		need = int64(replicas)
	}

	// order lists, best ranked first, the candidates still in the running.
	x := newIndex(candidates, dims)
	order := rank(candidates, x)

	sel := selection{clusterMin: 1, replicas: replicas, divided: divided}
	if byCluster != nil {
		sel.clusterMin, sel.clusterLimit = byCluster.min, byCluster.max
	}
	for d := range dims {
		chosen, err := x.chooseGroups(candidates, order, d, &sel)
		if err != nil {
			return nil, err
		}
		order = x.keepInGroups(order, d, chosen)
	}
	if byCluster != nil {
		if len(order) < byCluster.min {
			return nil, failf("the number of feasible %s (%d) is less than minGroups %d", byCluster.plural, len(order), byCluster.min)
		}
		// Karmada swaps clusters for capacity only when spreading by
		// cluster alone.
		swapFor := need
		if len(dims) > 0 {
			swapFor = 0
		}
		order = x.pickClusters(candidates, order, byCluster.max, swapFor)
	}
	for d := range dims {
		if n := x.countGroups(order, d); n < dims[d].min {
			return nil, failf("the number of feasible %s (%d) is less than minGroups %d", dims[d].plural, n, dims[d].min)
		}
	}

	result := make([]Candidate, len(order))
	var total int64
	for i, c := range order {
		result[i] = candidates[c]
		total += candidates[c].Available
	}
	if total < need {
		return nil, failf("the selected clusters can take %d more replicas, fewer than the %d needed", total, need)
	}
	return result, nil
}

// rankKey is what clusters are ranked by, kept free of pointers so that
// sorting does not hit write barriers.
type rankKey struct {
	score, available int64
	index            int32
}

// rank returns the indexes of the grouped candidates ordered by higher
// score, then more available replicas, then name.
func rank(candidates []Candidate, x *index) []int32 {
	keys := make([]rankKey, 0, len(candidates))
	for i := range candidates {
		if x.grouped(int32(i)) {
			keys = append(keys, rankKey{score: candidates[i].Score, available: candidates[i].Available, index: int32(i)})
		}
	}
	slices.SortFunc(keys, func(a, b rankKey) int {
		if a.score != b.score {
			return cmp.Compare(b.score, a.score)
		}
		if a.available != b.available {
			return cmp.Compare(b.available, a.available)
		}
		return strings.Compare(candidates[a.index].Cluster.Name, candidates[b.index].Cluster.Name)
	})
	order := make([]int32, len(keys))
	for i := range keys {
		order[i] = keys[i].index
	}
	return order
}

// dimension is one spread constraint other than by cluster, or the cluster
// constraint itself (field cluster).
type dimension struct {
	field    policyv1alpha1.SpreadFieldValue
	label    string
	min, max int // max 0: no upper bound
	plural   string
}

// fieldOrder ranks group fields from broad to narrow; labels come last.
var fieldOrder = map[policyv1alpha1.SpreadFieldValue]int{
	policyv1alpha1.SpreadByFieldProvider: 0,
	policyv1alpha1.SpreadByFieldRegion:   1,
	policyv1alpha1.SpreadByFieldZone:     2,
}

// parseConstraints splits off the cluster constraint and orders the group
// constraints broad to narrow. Empty field and label mean cluster, minGroups
// 0 means 1, maxGroups 0 means no upper bound.
func parseConstraints(constraints []policyv1alpha1.SpreadConstraint) (*dimension, []dimension, error) {
	var byCluster *dimension
	var dims []dimension
	seen := map[string]bool{}
	for _, c := range constraints {
		d := dimension{field: c.SpreadByField, label: c.SpreadByLabel, min: max(c.MinGroups, 1), max: c.MaxGroups}
		key := "field " + string(d.field)
		switch {
		case d.label != "" && d.field != "":
			return nil, nil, failf("spread constraint sets both spreadByField %q and spreadByLabel %q", d.field, d.label)
		case d.label != "":
			key, d.plural = "label "+d.label, fmt.Sprintf("groups of label %q", d.label)
		case d.field == "" || d.field == policyv1alpha1.SpreadByFieldCluster:
			d.field, key, d.plural = policyv1alpha1.SpreadByFieldCluster, "field cluster", "clusters"
		case d.field == policyv1alpha1.SpreadByFieldRegion, d.field == policyv1alpha1.SpreadByFieldZone,
			d.field == policyv1alpha1.SpreadByFieldProvider:
			d.plural = string(d.field) + "s"
		default:
			return nil, nil, failf("unsupported spreadByField %q", d.field)
		}
		if seen[key] {
			return nil, nil, failf("more than one spread constraint by %s", key)
		}
		seen[key] = true
		if d.max > 0 && d.max < d.min {
			return nil, nil, failf("maxGroups %d of the %s spread constraint is less than minGroups %d", d.max, key, d.min)
		}
		if d.field == policyv1alpha1.SpreadByFieldCluster {
			byCluster = &d
			continue
		}
		dims = append(dims, d)
	}
	slices.SortStableFunc(dims, func(a, b dimension) int { return cmp.Compare(orderOf(&a), orderOf(&b)) })
	return byCluster, dims, nil
}

func orderOf(d *dimension) int {
	if d.label != "" {
		return len(fieldOrder)
	}
	return fieldOrder[d.field]
}
