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
	"fmt"
	"math"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

const gpu corev1.ResourceName = "nvidia.com/gpu"

// list builds a ResourceList from name, quantity pairs.
func list(pairs ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		out[corev1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return out
}

func cluster(allocatable, allocated, allocating corev1.ResourceList) *clusterv1alpha1.Cluster {
	return &clusterv1alpha1.Cluster{Status: clusterv1alpha1.ClusterStatus{ResourceSummary: &clusterv1alpha1.ResourceSummary{
		Allocatable: allocatable, Allocated: allocated, Allocating: allocating,
	}}}
}

func requests(pairs ...string) *workv1alpha2.ReplicaRequirements {
	return &workv1alpha2.ReplicaRequirements{ResourceRequest: list(pairs...)}
}

func TestAvailableReplicas(t *testing.T) {
	t.Parallel()
	roomy := cluster(
		list("pods", "110", "cpu", "8", "memory", "32Gi", "ephemeral-storage", "100Gi", string(gpu), "4"),
		list("pods", "10", "cpu", "2", "memory", "8Gi", string(gpu), "1"),
		list("pods", "5", "cpu", "500m"),
	)
	cases := []struct {
		name    string
		cluster *clusterv1alpha1.Cluster
		req     *workv1alpha2.ReplicaRequirements
		want    int64
	}{
		{name: "A nil cluster takes nothing.", req: requests("cpu", "1"), want: 0},
		{name: "A cluster without a resource summary takes nothing.", cluster: &clusterv1alpha1.Cluster{}, want: 0},
		{name: "Without requirements only free pod slots count.", cluster: roomy, want: 95},
		{name: "Requirements without requests count free pod slots.", cluster: roomy, req: &workv1alpha2.ReplicaRequirements{Namespace: "default"}, want: 95},
		{name: "Free CPU in thousandths bounds the replicas.", cluster: roomy, req: requests("cpu", "500m"), want: 11},
		{name: "Partial replicas are rounded down.", cluster: roomy, req: requests("cpu", "2"), want: 2},
		{name: "The scarcest resource wins.", cluster: roomy, req: requests("cpu", "100m", "memory", "4Gi"), want: 6},
		{name: "Extended resources such as GPUs count like any other.", cluster: roomy, req: requests("cpu", "100m", string(gpu), "2"), want: 1},
		{name: "Free pod slots cap tiny requests.", cluster: roomy, req: requests("cpu", "1m"), want: 95},
		{name: "A requested resource the cluster lacks leaves no room.", cluster: roomy, req: requests("cpu", "100m", "example.com/fpga", "1"), want: 0},
		{name: "A zero request is ignored.", cluster: roomy, req: requests("cpu", "0", "memory", "1Gi"), want: 24},
		{name: "A pods request is ignored.", cluster: roomy, req: requests("pods", "50", "cpu", "1"), want: 5},
		{name: "An overcommitted resource leaves no room.", cluster: cluster(list("pods", "10", "cpu", "2"), list("cpu", "3"), nil), req: requests("cpu", "100m"), want: 0},
		{name: "Allocating requests are subtracted too.", cluster: cluster(list("pods", "10", "cpu", "2"), nil, list("cpu", "1500m")), req: requests("cpu", "250m"), want: 2},
		{name: "A cluster reporting no pod slots takes nothing.", cluster: cluster(list("cpu", "8"), nil, nil), req: requests("cpu", "1"), want: 0},
		{name: "Pods fully used leave no room.", cluster: cluster(list("pods", "10", "cpu", "8"), list("pods", "7"), list("pods", "3")), req: requests("cpu", "1"), want: 0},
		{name: "Negative usage reports are treated as zero.", cluster: cluster(list("pods", "10"), list("pods", "-5"), nil), want: 10},
		{name: "Amounts too large for thousandths are read in whole units.", cluster: cluster(list("pods", "100", "ephemeral-storage", "8E"), list("ephemeral-storage", "1E"), nil), req: requests("ephemeral-storage", "2E"), want: 3},
		{name: "Amounts beyond int64 are clamped instead of overflowing.", cluster: cluster(list("pods", "1000000", "ephemeral-storage", "100E"), nil, nil), req: requests("ephemeral-storage", "1k"), want: 1000000},
		{name: "Unbounded pod slots leave the resource as the only bound.", cluster: cluster(list("pods", fmt.Sprint(int64(math.MaxInt64)), "memory", "1Gi"), nil, nil), req: requests("memory", "1Mi"), want: 1024},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := AvailableReplicas(tc.cluster, tc.req); got != tc.want {
				t.Fatalf("AvailableReplicas = %d, want %d", got, tc.want)
			}
			capacity, request := CapacityOf(tc.cluster), RequestOf(tc.req)
			if got := capacity.Replicas(&request); got != tc.want {
				t.Fatalf("CapacityOf(cluster).Replicas(RequestOf(req)) = %d, want %d", got, tc.want)
			}
		})
	}
}

func TestAvailableReplicasDoesNotAllocate(t *testing.T) {
	c := cluster(list("pods", "110", "cpu", "8", "memory", "32Gi"), list("cpu", "2"), list("memory", "1Gi"))
	req := requests("cpu", "250m", "memory", "512Mi")
	if n := testing.AllocsPerRun(100, func() { AvailableReplicas(c, req) }); n != 0 {
		t.Fatalf("AvailableReplicas allocates %v times per call, want 0", n)
	}
}

func TestCapacityReplicasDoesNotAllocate(t *testing.T) {
	capacity := CapacityOf(cluster(list("pods", "110", "cpu", "8", "memory", "32Gi"), list("cpu", "2"), list("memory", "1Gi")))
	request := RequestOf(requests("cpu", "250m", "memory", "512Mi"))
	if n := testing.AllocsPerRun(100, func() { capacity.Replicas(&request) }); n != 0 {
		t.Fatalf("Capacity.Replicas allocates %v times per call, want 0", n)
	}
}

// BenchmarkAvailableReplicas estimates one requirement against 1000 clusters.
func BenchmarkAvailableReplicas(b *testing.B) {
	clusters := make([]*clusterv1alpha1.Cluster, 1000)
	for i := range clusters {
		clusters[i] = cluster(
			list("pods", fmt.Sprint(100+i), "cpu", fmt.Sprint(16+i%32), "memory", fmt.Sprintf("%dGi", 64+i%128), string(gpu), fmt.Sprint(i%8)),
			list("pods", fmt.Sprint(i%50), "cpu", fmt.Sprintf("%dm", 1500*(i%7)), "memory", fmt.Sprintf("%dMi", 900*(i%11))),
			list("pods", "2", "cpu", "250m"),
		)
	}
	req := requests("cpu", "250m", "memory", "512Mi", string(gpu), "1")
	b.ReportAllocs()
	for b.Loop() {
		for _, c := range clusters {
			AvailableReplicas(c, req)
		}
	}
}
