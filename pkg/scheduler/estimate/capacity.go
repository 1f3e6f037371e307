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

package estimate

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Capacity is what a cluster has left, read once from its resource summary
// and resource models so that many workloads can be estimated against it
// without parsing quantities again. CapacityOf(c).Replicas(RequestOf(req))
// equals AvailableReplicas(c, req).
type Capacity struct {
	// pods is the free pod slots; 0 without a summary or a pods entry.
	pods int64
	left []leftover
	// grades are the modeled nodes (nil: the cluster reports no models).
	grades []grade
}

// leftover is the free amount of one allocatable resource, in thousandths
// (when allocatable, allocated and allocating all fit) and in whole units.
type leftover struct {
	name    corev1.ResourceName
	milliOK bool
	milli   int64
	whole   int64
}

// CapacityOf reads the free amounts of every allocatable resource.
func CapacityOf(cluster *clusterv1alpha1.Cluster) Capacity {
	if cluster == nil || cluster.Status.ResourceSummary == nil {
		return Capacity{}
	}
	sum := cluster.Status.ResourceSummary
	c := Capacity{pods: free(sum, corev1.ResourcePods), left: make([]leftover, 0, len(sum.Allocatable)), grades: gradesOf(cluster)}
	for name, total := range sum.Allocatable {
		if name == corev1.ResourcePods {
			continue
		}
		used, pending := sum.Allocated[name], sum.Allocating[name]
		l := leftover{name: name, whole: subtract(read(&total, false), read(&used, false), read(&pending, false))}
		if fitsMilli(&total) && fitsMilli(&used) && fitsMilli(&pending) {
			l.milliOK = true
			l.milli = subtract(read(&total, true), read(&used, true), read(&pending, true))
		}
		c.left = append(c.left, l)
	}
	return c
}

// Request is what one replica asks for, read once.
type Request struct {
	items []requested
}

type requested struct {
	name    corev1.ResourceName
	milliOK bool
	milli   int64
	whole   int64
}

// RequestOf reads the positive requests other than pods, which are the
// ones AvailableReplicas weighs. A nil req asks for pod slots only.
func RequestOf(req *workv1alpha2.ReplicaRequirements) Request {
	if req == nil {
		return Request{}
	}
	var r Request
	for name, q := range req.ResourceRequest {
		if name == corev1.ResourcePods || q.Sign() <= 0 {
			continue
		}
		r.items = append(r.items, requestedOf(name, &q))
	}
	return r
}

func requestedOf(name corev1.ResourceName, q *resource.Quantity) requested {
	r := requested{name: name, whole: read(q, false)}
	if fitsMilli(q) {
		r.milliOK, r.milli = true, read(q, true)
	}
	return r
}

// Replicas returns how many more replicas of r fit, as AvailableReplicas
// does. It does not allocate.
func (c *Capacity) Replicas(r *Request) int64 {
	most := c.pods
	for i := range r.items {
		if most == 0 {
			break
		}
		most = min(most, c.fits(&r.items[i]))
	}
	if most > 0 && c.grades != nil && len(r.items) > 0 {
		if modeled, ok := modeledReplicas(c.grades, r); ok {
			most = min(most, modeled)
		}
	}
	return most
}

// fits returns how many requests of one resource the leftover satisfies.
func (c *Capacity) fits(r *requested) int64 {
	for i := range c.left {
		l := &c.left[i]
		if l.name != r.name {
			continue
		}
		return l.holds(r)
	}
	return 0
}
