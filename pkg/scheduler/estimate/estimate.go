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

// Package estimate works out how many more replicas of a workload a member
// cluster can take, from what the cluster reports in its status: the
// resource totals, pooled as if the cluster were one big node, and, when
// the cluster counts its nodes per resource model grade
// (allocatableModelings), node by node, each node taken at its grade's
// lower bounds, so that a replica larger than every node fits nowhere.
package estimate

import (
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// AvailableReplicas returns how many more replicas described by req fit in
// cluster.
//
// For every resource the replica requests, what is free is allocatable minus
// allocated minus allocating, and the cluster fits free/request replicas
// (rounded down). The answer is the smallest of these, and never more than
// the free pod slots (allocatable, allocated and allocating "pods"). A nil
// req, or one without requests, is bounded by pod slots alone; requests of
// zero and the "pods" request itself are ignored.
//
// When the cluster counts its nodes per resource model grade and the
// models name every requested resource, the answer is also at most what
// fits node by node, each node holding its grade's lower bounds and at
// most 110 pods (Karmada's general estimator with
// CustomizedClusterResourceModeling): conservative, since a node counts
// at the bottom of its grade, but never a replica no node can hold.
//
// A cluster that reports no resource summary, no allocatable pods, or none
// of a requested resource gets 0: capacity that is unknown never attracts
// replicas. Negative free amounts count as 0. Arithmetic is in int64
// thousandths of a unit, or whole units for amounts too large for that, so
// it cannot overflow. The call does not allocate unless the cluster
// reports resource models.
func AvailableReplicas(cluster *clusterv1alpha1.Cluster, req *workv1alpha2.ReplicaRequirements) int64 {
	if cluster == nil || cluster.Status.ResourceSummary == nil {
		return 0
	}
	sum := cluster.Status.ResourceSummary
	most := free(sum, corev1.ResourcePods)
	if req == nil {
		return most
	}
	for name, request := range req.ResourceRequest {
		if most == 0 {
			break
		}
		if name == corev1.ResourcePods || request.Sign() <= 0 {
			continue
		}
		most = min(most, fits(sum, name, &request))
	}
	if most > 0 && len(sum.AllocatableModelings) > 0 {
		c := Capacity{grades: gradesOf(cluster)}
		r := RequestOf(req)
		if c.grades != nil && len(r.items) > 0 {
			if modeled, ok := modeledReplicas(c.grades, &r); ok {
				most = min(most, modeled)
			}
		}
	}
	return most
}

// fits returns how many requests of the named resource the summary can still
// satisfy.
func fits(sum *clusterv1alpha1.ResourceSummary, name corev1.ResourceName, request *resource.Quantity) int64 {
	total, ok := sum.Allocatable[name]
	if !ok {
		return 0
	}
	used, pending := sum.Allocated[name], sum.Allocating[name]
	milli := fitsMilli(request) && fitsMilli(&total) && fitsMilli(&used) && fitsMilli(&pending)
	left := subtract(read(&total, milli), read(&used, milli), read(&pending, milli))
	if left == 0 {
		return 0
	}
	return left / max(read(request, milli), 1)
}

// free returns the free amount of the named resource in whole units.
func free(sum *clusterv1alpha1.ResourceSummary, name corev1.ResourceName) int64 {
	total, ok := sum.Allocatable[name]
	if !ok {
		return 0
	}
	used, pending := sum.Allocated[name], sum.Allocating[name]
	return subtract(read(&total, false), read(&used, false), read(&pending, false))
}

// subtract returns total minus used minus pending, never below 0; all three
// are at least 0.
func subtract(total, used, pending int64) int64 {
	left := total - used
	if left <= pending {
		return 0
	}
	return left - pending
}

// milliLimit is the largest amount whose thousandths fit in an int64.
const milliLimit = math.MaxInt64 / 1000

func fitsMilli(q *resource.Quantity) bool {
	return q.CmpInt64(milliLimit) <= 0
}

// read returns q in thousandths or whole units, clamped to [0, MaxInt64].
// Whole units round up, like Quantity.Value.
func read(q *resource.Quantity, milli bool) int64 {
	switch {
	case q.Sign() <= 0:
		return 0
	case milli:
		return q.MilliValue()
	case q.CmpInt64(math.MaxInt64) >= 0:
		return math.MaxInt64
	default:
		return q.Value()
	}
}
