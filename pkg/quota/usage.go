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

// Package quota is the arithmetic of FederatedResourceQuota enforcement:
// what a binding's placement uses of the resources a quota names, what a
// namespace uses in all, and whether a new placement would go past the
// overall limit. It reads nothing and writes nothing.
package quota

import (
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// placed is the number of replicas a placement runs: each cluster's
// replicas, added up (a Duplicated workload runs its replicas in each).
func placed(clusters []workv1alpha2.TargetCluster) int64 {
	var n int64
	for _, c := range clusters {
		n += int64(max(c.Replicas, 0))
	}
	return n
}

// perReplica is what one replica uses of a quota resource: pods count 1;
// cpu, memory, ephemeral-storage and extended resources count their
// request, under their own name or requests.NAME. Limits are not known
// from a binding and count nothing.
func perReplica(name corev1.ResourceName, requests corev1.ResourceList) (resource.Quantity, bool) {
	switch n := string(name); {
	case name == corev1.ResourcePods:
		return *resource.NewQuantity(1, resource.DecimalSI), true
	case strings.HasPrefix(n, "limits."):
		return resource.Quantity{}, false
	default:
		q, ok := requests[corev1.ResourceName(strings.TrimPrefix(n, "requests."))]
		return q, ok
	}
}

// Usage is what a placement of the binding uses of each named resource:
// its replicas times one replica's use. Names a replica does not use are
// zero.
func Usage(spec *workv1alpha2.ResourceBindingSpec, clusters []workv1alpha2.TargetCluster, names []corev1.ResourceName) corev1.ResourceList {
	out := make(corev1.ResourceList, len(names))
	n := placed(clusters)
	if spec.Replicas <= 0 {
		n = 0 // a kind without replicas runs no pods of its own
	}
	var requests corev1.ResourceList
	if spec.ReplicaRequirements != nil {
		requests = spec.ReplicaRequirements.ResourceRequest
	}
	for _, name := range names {
		total := resource.Quantity{Format: resource.DecimalSI}
		if q, ok := perReplica(name, requests); ok && n > 0 {
			total = q.DeepCopy()
			total.Mul(n)
		}
		out[name] = total
	}
	return out
}

// Add adds b into a, for the names a holds.
func Add(a, b corev1.ResourceList) {
	for name, q := range a {
		if v, ok := b[name]; ok {
			q.Add(v)
			a[name] = q
		}
	}
}

// Names lists the resources a limit names, sorted.
func Names(limit corev1.ResourceList) []corev1.ResourceName {
	out := make([]corev1.ResourceName, 0, len(limit))
	for n := range limit {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Excess describes, for each resource whose use grows from before to
// after and ends past limit, the figures: "cpu: 1500m requested (500m
// more), 1 limit". Use that shrinks or stays is never refused, so
// lowering a limit evicts nothing. Empty when after fits.
func Excess(before, after, limit corev1.ResourceList) []string {
	var out []string
	for _, name := range Names(limit) {
		a, b, l := after[name], before[name], limit[name]
		if a.Cmp(b) <= 0 || a.Cmp(l) <= 0 {
			continue
		}
		more := a.DeepCopy()
		more.Sub(b)
		out = append(out, fmt.Sprintf("%s: %s would be used (%s more), over the limit of %s", name, a.String(), more.String(), l.String()))
	}
	return out
}
