package clusterstatus

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// counts lists the node count of every grade, lowest first.
func counts(m []clusterv1alpha1.AllocatableModeling) []int {
	out := make([]int, len(m))
	for i, g := range m {
		if g.Grade != uint(i) {
			return nil
		}
		out[i] = g.Count
	}
	return out
}

func TestAllocatableModelings(t *testing.T) {
	t.Parallel()
	defaults := clusterv1alpha1.DefaultResourceModels()
	cases := []struct {
		name   string
		models []clusterv1alpha1.ResourceModel
		nodes  []*corev1.Node
		pods   []*corev1.Pod
		want   []int
	}{
		{
			name:   "Without models nothing is counted.",
			models: nil, nodes: []*corev1.Node{node("a", true, false, "cpu", "8", "memory", "64Gi", "pods", "110")},
			want: nil,
		},
		{
			name:   "An empty node of 8 CPUs and 64Gi is grade 4; one of 8 CPUs and 32Gi is grade 3 (its memory's).",
			models: defaults,
			nodes: []*corev1.Node{
				node("a", true, false, "cpu", "8", "memory", "64Gi", "pods", "110"),
				node("b", true, false, "cpu", "8", "memory", "32Gi", "pods", "110"),
				node("c", true, false, "cpu", "4", "memory", "16Gi", "pods", "110"),
			},
			want: []int{0, 0, 1, 1, 1, 0, 0, 0, 0},
		},
		{
			name:   "Requests of running pods lower a node's grade; finished and unbound pods do not.",
			models: defaults,
			nodes:  []*corev1.Node{node("a", true, false, "cpu", "8", "memory", "64Gi", "pods", "110")},
			pods: []*corev1.Pod{
				pod("a", corev1.PodRunning, "cpu", "500m"), pod("a", corev1.PodSucceeded, "cpu", "4"), pod("", corev1.PodPending, "cpu", "4"),
			},
			want: []int{0, 0, 0, 1, 0, 0, 0, 0, 0},
		},
		{
			name:   "Unschedulable nodes and nodes without a free pod slot are left out.",
			models: defaults,
			nodes: []*corev1.Node{
				node("a", true, true, "cpu", "8", "memory", "64Gi", "pods", "110"),
				node("b", true, false, "cpu", "8", "memory", "64Gi", "pods", "1"),
			},
			pods: []*corev1.Pod{pod("b", corev1.PodRunning, "cpu", "0")},
			want: []int{0, 0, 0, 0, 0, 0, 0, 0, 0},
		},
		{
			name:   "A node that does not report a modeled resource is grade 0.",
			models: defaults,
			nodes:  []*corev1.Node{node("a", true, false, "cpu", "64", "pods", "110")},
			want:   []int{1, 0, 0, 0, 0, 0, 0, 0, 0},
		},
		{
			name:   "The top grade takes any larger node.",
			models: defaults,
			nodes:  []*corev1.Node{node("a", true, false, "cpu", "1000", "memory", "4Ti", "pods", "110")},
			want:   []int{0, 0, 0, 0, 0, 0, 0, 0, 1},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			got := counts(allocatableModelings(tc.models, tc.nodes, tc.pods))
			if tc.want == nil {
				got = nil
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("counts per grade (-want +got):\n%s", diff)
			}
		})
	}
}
