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
	"math"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// ComponentSets returns how many complete sets of a multi-component
// workload (every component with all its replicas) fit in cluster, and
// the resource that limits it ("" when none does).
//
// A set needs, of each resource, the sum over components of replicas
// times one replica's request, and as many pod slots as replicas in all;
// the pooled summary must hold that. Where the cluster reports resource
// models, each component's replicas must also fit node by node (each
// component counted alone, as AvailableReplicas counts it), so that a
// component whose replica no node can hold leaves no set. A workload whose
// components request nothing is bounded by pod slots alone.
func ComponentSets(cluster *clusterv1alpha1.Cluster, components []workv1alpha2.Component) (int64, corev1.ResourceName) {
	if cluster == nil || cluster.Status.ResourceSummary == nil {
		return 0, corev1.ResourcePods
	}
	sum := cluster.Status.ResourceSummary
	perSet, pods := setRequests(components)
	most, limit := int64(math.MaxInt64), corev1.ResourceName("")
	if pods > 0 {
		most, limit = free(sum, corev1.ResourcePods)/pods, corev1.ResourcePods
	}
	for name, q := range perSet {
		if n := fits(sum, name, &q); n < most {
			most, limit = n, name
		}
	}
	grades := gradesOf(cluster)
	for i := range components {
		c := &components[i]
		if most == 0 || grades == nil || c.Replicas <= 0 || c.ReplicaRequirements == nil {
			continue
		}
		r := RequestOf(&workv1alpha2.ReplicaRequirements{ResourceRequest: c.ReplicaRequirements.ResourceRequest})
		if len(r.items) == 0 {
			continue
		}
		if modeled, ok := modeledReplicas(grades, &r); ok && modeled/int64(c.Replicas) < most {
			most, limit = modeled/int64(c.Replicas), largestRequest(&r)
		}
	}
	if most == math.MaxInt64 {
		return most, ""
	}
	return most, limit
}

// setRequests adds up what one set requests, resource by resource
// (pods apart), and its pods.
func setRequests(components []workv1alpha2.Component) (corev1.ResourceList, int64) {
	perSet := corev1.ResourceList{}
	var pods int64
	for i := range components {
		c := &components[i]
		if c.Replicas <= 0 {
			continue
		}
		pods += int64(c.Replicas)
		if c.ReplicaRequirements == nil {
			continue
		}
		for name, q := range c.ReplicaRequirements.ResourceRequest {
			if name == corev1.ResourcePods || q.Sign() <= 0 {
				continue
			}
			total := perSet[name]
			total.Add(times(q, int64(c.Replicas)))
			perSet[name] = total
		}
	}
	return perSet, pods
}

// largestRequest names the request of r that is largest in its own units,
// for messages: the node-by-node limit comes from one replica's size.
func largestRequest(r *Request) corev1.ResourceName {
	var name corev1.ResourceName
	var most int64 = -1
	for _, it := range r.items {
		if it.whole > most {
			name, most = it.name, it.whole
		}
	}
	return name
}

// times returns q multiplied by n (n > 0), in thousandths while they fit
// and in whole units (rounded up) beyond.
func times(q resource.Quantity, n int64) resource.Quantity {
	if fitsMilli(&q) && q.MilliValue() <= math.MaxInt64/n {
		return *resource.NewMilliQuantity(q.MilliValue()*n, q.Format)
	}
	if v := q.Value(); v <= math.MaxInt64/n {
		return *resource.NewQuantity(v*n, q.Format)
	}
	return *resource.NewQuantity(math.MaxInt64, q.Format)
}
