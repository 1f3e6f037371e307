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
	"testing"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// modeled is a cluster of 3 empty nodes of 8 CPUs and 64Gi (default
// grade 4) with the default models and the pooled summary they make.
func modeled(counts ...int) *clusterv1alpha1.Cluster {
	c := cluster(list("pods", "330", "cpu", "24", "memory", "192Gi"), list(), list())
	c.Spec.ResourceModels = clusterv1alpha1.DefaultResourceModels()
	for i, n := range counts {
		c.Status.ResourceSummary.AllocatableModelings = append(c.Status.ResourceSummary.AllocatableModelings,
			clusterv1alpha1.AllocatableModeling{Grade: uint(i), Count: n})
	}
	return c
}

func TestModeledReplicas(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		cluster *clusterv1alpha1.Cluster
		req     []string
		want    int64
	}{
		{name: "Without modelings the pooled summary decides: 10 CPUs fit twice in 24.", cluster: modeled(), req: []string{"cpu", "10"}, want: 2},
		{name: "A replica of 10 CPUs fits on no node of 8.", cluster: modeled(0, 0, 0, 0, 3, 0, 0, 0, 0), req: []string{"cpu", "10"}, want: 0},
		{name: "Replicas of 3 CPUs: two per node of 8.", cluster: modeled(0, 0, 0, 0, 3, 0, 0, 0, 0), req: []string{"cpu", "3"}, want: 6},
		{name: "Nodes count at their grade's lower bounds (grade 3: 4 CPUs, 32Gi).", cluster: modeled(0, 0, 0, 3, 0, 0, 0, 0, 0), req: []string{"cpu", "1"}, want: 12},
		{name: "Memory limits as much as CPU.", cluster: modeled(0, 0, 0, 0, 3, 0, 0, 0, 0), req: []string{"cpu", "100m", "memory", "20Gi"}, want: 9},
		{name: "The pooled summary still caps the answer.", cluster: modeled(0, 0, 0, 0, 0, 0, 0, 0, 3), req: []string{"cpu", "1"}, want: 24},
		{name: "Small replicas are held to 110 pods a node.", cluster: modeled(0, 0, 0, 0, 0, 0, 0, 0, 1), req: []string{"cpu", "1m"}, want: 110},
		{name: "A resource the models do not name leaves it to the pooled summary.", cluster: modeled(0, 0, 0, 0, 3, 0, 0, 0, 0), req: []string{"cpu", "10", "ephemeral-storage", "1"}, want: 0},
		{name: "Every node full: nothing fits.", cluster: modeled(0, 0, 0, 0, 0, 0, 0, 0, 0), req: []string{"cpu", "1"}, want: 0},
		{name: "Grade 0 holds only replicas that request nothing modeled.", cluster: modeled(3, 0, 0, 0, 0, 0, 0, 0, 0), req: []string{"cpu", "1"}, want: 0},
		{name: "Pods-only requests are bounded by pod slots alone.", cluster: modeled(0, 0, 0, 0, 3, 0, 0, 0, 0), req: nil, want: 330},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			req := requests(tc.req...)
			if got := AvailableReplicas(tc.cluster, req); got != tc.want {
				t.Errorf("AvailableReplicas = %d, want %d", got, tc.want)
			}
			capacity, request := CapacityOf(tc.cluster), RequestOf(req)
			if got := capacity.Replicas(&request); got != tc.want {
				t.Errorf("Capacity.Replicas = %d, want %d", got, tc.want)
			}
		})
	}
}
