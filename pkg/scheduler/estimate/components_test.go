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
	"testing"

	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func component(name string, replicas int32, pairs ...string) workv1alpha2.Component {
	c := workv1alpha2.Component{Name: name, Replicas: replicas}
	if len(pairs) > 0 {
		c.ReplicaRequirements = &workv1alpha2.ComponentReplicaRequirements{ResourceRequest: list(pairs...)}
	}
	return c
}

func TestComponentSets(t *testing.T) {
	t.Parallel()
	// 24 CPUs, 192Gi and 330 pod slots in 3 nodes of 8 CPUs, 64Gi.
	pooled := modeled()
	nodes := modeled(0, 0, 0, 0, 3, 0, 0, 0, 0)
	cases := []struct {
		name       string
		cluster    *clusterv1alpha1.Cluster
		components []workv1alpha2.Component
		want       int64
		limit      corev1.ResourceName
	}{
		{name: "A set of 1 manager (1 CPU) and 4 workers (2 CPUs) needs 9 CPUs: 2 sets in 24.",
			cluster: pooled, components: []workv1alpha2.Component{component("manager", 1, "cpu", "1"), component("worker", 4, "cpu", "2")},
			want: 2, limit: corev1.ResourceCPU},
		{name: "Memory limits as much as CPU.",
			cluster: pooled, components: []workv1alpha2.Component{component("manager", 1, "memory", "64Gi"), component("worker", 2, "cpu", "1", "memory", "32Gi")},
			want: 1, limit: corev1.ResourceMemory},
		{name: "Pod slots count every replica of a set.",
			cluster: pooled, components: []workv1alpha2.Component{component("a", 100), component("b", 10)},
			want: 3, limit: corev1.ResourcePods},
		{name: "A worker of 10 CPUs fits no node of 8: no set, though 24 CPUs are free.",
			cluster: nodes, components: []workv1alpha2.Component{component("manager", 1, "cpu", "1"), component("worker", 1, "cpu", "10")},
			want: 0, limit: corev1.ResourceCPU},
		{name: "Node by node each component alone: 6 workers of 3 CPUs fit (2 a node), so 1 set of 5.",
			cluster: nodes, components: []workv1alpha2.Component{component("worker", 5, "cpu", "3")},
			want: 1, limit: corev1.ResourceCPU},
		{name: "A resource the cluster lacks leaves no set.",
			cluster: pooled, components: []workv1alpha2.Component{component("trainer", 1, "nvidia.com/gpu", "1")},
			want: 0, limit: "nvidia.com/gpu"},
		{name: "No replicas, no requests: unbounded.",
			cluster: pooled, components: []workv1alpha2.Component{component("idle", 0)},
			want: math.MaxInt64, limit: ""},
		{name: "No summary: nothing fits.",
			cluster: &clusterv1alpha1.Cluster{}, components: []workv1alpha2.Component{component("a", 1)},
			want: 0, limit: corev1.ResourcePods},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got, limit := ComponentSets(tc.cluster, tc.components)
			if got != tc.want || limit != tc.limit {
				t.Errorf("ComponentSets = %d (limited by %q), want %d (%q)", got, limit, tc.want, tc.limit)
			}
		})
	}
}
