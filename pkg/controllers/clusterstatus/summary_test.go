package clusterstatus

import (
	"errors"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

var sameQuantity = cmp.Comparer(func(a, b resource.Quantity) bool { return a.Cmp(b) == 0 })

// list builds a ResourceList from name, quantity pairs.
func list(pairs ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(pairs); i += 2 {
		out[corev1.ResourceName(pairs[i])] = resource.MustParse(pairs[i+1])
	}
	return out
}

func TestReadyCondition(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name               string
		reachable, healthy bool
		msg                string
		want               metav1.Condition
	}{
		{
			name: "A reachable and healthy member is ready.", reachable: true, healthy: true, msg: "ignored",
			want: metav1.Condition{Type: clusterv1alpha1.ClusterConditionReady, Status: metav1.ConditionTrue, Reason: ReasonClusterReady,
				Message: "cluster is healthy and ready to accept workloads", ObservedGeneration: 3},
		},
		{
			name: "A reachable but unhealthy member is not ready.", reachable: true, msg: "readyz said no",
			want: metav1.Condition{Type: clusterv1alpha1.ClusterConditionReady, Status: metav1.ConditionFalse, Reason: ReasonClusterNotReady,
				Message: "cluster is not healthy: readyz said no", ObservedGeneration: 3},
		},
		{
			name: "An unreachable member is not reachable, whatever its health.", healthy: true, msg: "dial tcp: refused",
			want: metav1.Condition{Type: clusterv1alpha1.ClusterConditionReady, Status: metav1.ConditionFalse, Reason: ReasonClusterNotReachable,
				Message: "cluster is not reachable: dial tcp: refused", ObservedGeneration: 3},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, readyCondition(tc.reachable, tc.healthy, tc.msg, 3)); diff != "" {
				t.Errorf("condition differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestAPIEnablements(t *testing.T) {
	t.Parallel()
	res := func(name, kind string) metav1.APIResource {
		return metav1.APIResource{Name: name, Kind: kind, Namespaced: true, Verbs: []string{"get"}}
	}
	cases := []struct {
		name  string
		lists []*metav1.APIResourceList
		want  []clusterv1alpha1.APIEnablement
	}{
		{name: "A member serving nothing has no enablements."},
		{
			name: "Group versions and their resources are sorted and subresources are left out.",
			lists: []*metav1.APIResourceList{
				{GroupVersion: "v1", APIResources: []metav1.APIResource{res("pods", "Pod"), res("pods/status", "Pod"), res("configmaps", "ConfigMap")}},
				{GroupVersion: "apps/v1", APIResources: []metav1.APIResource{res("statefulsets", "StatefulSet"), res("deployments/scale", "Scale"), res("deployments", "Deployment")}},
				{GroupVersion: "batch/v1", APIResources: []metav1.APIResource{res("jobs", "Job")}},
			},
			want: []clusterv1alpha1.APIEnablement{
				{GroupVersion: "apps/v1", Resources: []clusterv1alpha1.APIResource{{Name: "deployments", Kind: "Deployment"}, {Name: "statefulsets", Kind: "StatefulSet"}}},
				{GroupVersion: "batch/v1", Resources: []clusterv1alpha1.APIResource{{Name: "jobs", Kind: "Job"}}},
				{GroupVersion: "v1", Resources: []clusterv1alpha1.APIResource{{Name: "configmaps", Kind: "ConfigMap"}, {Name: "pods", Kind: "Pod"}}},
			},
		},
		{
			name:  "A group version serving only subresources is listed without resources.",
			lists: []*metav1.APIResourceList{{GroupVersion: "example.com/v1", APIResources: []metav1.APIResource{res("widgets/status", "Widget")}}},
			want:  []clusterv1alpha1.APIEnablement{{GroupVersion: "example.com/v1"}},
		},
		{
			name: "A malformed group version is left out.",
			lists: []*metav1.APIResourceList{
				{GroupVersion: "a/b/c", APIResources: []metav1.APIResource{res("things", "Thing")}},
				{GroupVersion: "v1", APIResources: []metav1.APIResource{res("pods", "Pod")}},
			},
			want: []clusterv1alpha1.APIEnablement{{GroupVersion: "v1", Resources: []clusterv1alpha1.APIResource{{Name: "pods", Kind: "Pod"}}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, apiEnablements(tc.lists)); diff != "" {
				t.Errorf("enablements differ (-want +got):\n%s", diff)
			}
		})
	}
}

// node is a node offering allocatable, ready or not, schedulable or not.
func node(name string, ready, unschedulable bool, allocatable ...string) *corev1.Node {
	status := corev1.ConditionFalse
	if ready {
		status = corev1.ConditionTrue
	}
	return &corev1.Node{
		ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec:       corev1.NodeSpec{Unschedulable: unschedulable},
		Status: corev1.NodeStatus{
			Allocatable: list(allocatable...),
			Conditions: []corev1.NodeCondition{
				{Type: corev1.NodeMemoryPressure, Status: corev1.ConditionTrue},
				{Type: corev1.NodeReady, Status: status},
			},
		},
	}
}

// pod is a pod in phase, bound to nodeName (empty: pending), asking requests.
func pod(nodeName string, phase corev1.PodPhase, requests ...string) *corev1.Pod {
	return &corev1.Pod{
		Spec: corev1.PodSpec{NodeName: nodeName, Containers: []corev1.Container{
			{Name: "c", Resources: corev1.ResourceRequirements{Requests: list(requests...)}},
		}},
		Status: corev1.PodStatus{Phase: phase},
	}
}

func TestNodeSummary(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name  string
		nodes []*corev1.Node
		want  clusterv1alpha1.NodeSummary
	}{
		{name: "A member without nodes has none."},
		{
			name:  "Nodes are counted, and ready ones counted again, whether schedulable or not.",
			nodes: []*corev1.Node{node("a", true, false), node("b", false, false), node("c", true, true)},
			want:  clusterv1alpha1.NodeSummary{TotalNum: 3, ReadyNum: 2},
		},
		{
			name:  "A node without a Ready condition is not ready.",
			nodes: []*corev1.Node{{ObjectMeta: metav1.ObjectMeta{Name: "new"}}},
			want:  clusterv1alpha1.NodeSummary{TotalNum: 1},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(&tc.want, nodeSummary(tc.nodes)); diff != "" {
				t.Errorf("summary differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResourceSummary(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name                               string
		nodes                              []*corev1.Node
		pods                               []*corev1.Pod
		allocatable, allocated, allocating corev1.ResourceList
	}{
		{
			name:        "A member without nodes or pods has empty lists.",
			allocatable: corev1.ResourceList{}, allocated: corev1.ResourceList{}, allocating: corev1.ResourceList{},
		},
		{
			name:        "Schedulable nodes add up their allocatable resources.",
			nodes:       []*corev1.Node{node("a", true, false, "cpu", "2", "memory", "4Gi", "pods", "110"), node("b", true, false, "cpu", "500m", "memory", "1Gi", "pods", "110")},
			allocatable: list("cpu", "2500m", "memory", "5Gi", "pods", "220"),
			allocated:   corev1.ResourceList{}, allocating: corev1.ResourceList{},
		},
		{
			name:        "An unschedulable node offers nothing.",
			nodes:       []*corev1.Node{node("a", true, false, "cpu", "2"), node("cordoned", true, true, "cpu", "8")},
			allocatable: list("cpu", "2"),
			allocated:   corev1.ResourceList{}, allocating: corev1.ResourceList{},
		},
		{
			name:        "A schedulable node that is not ready still counts, as in Karmada.",
			nodes:       []*corev1.Node{node("a", true, false, "cpu", "2"), node("down", false, false, "cpu", "8")},
			allocatable: list("cpu", "10"),
			allocated:   corev1.ResourceList{}, allocating: corev1.ResourceList{},
		},
		{
			name: "Pods bound to a node are allocated and pods waiting for one are allocating, each counted as one pod.",
			pods: []*corev1.Pod{
				pod("a", corev1.PodRunning, "cpu", "500m", "memory", "1Gi"),
				pod("a", corev1.PodPending, "cpu", "250m"),
				pod("", corev1.PodPending, "cpu", "1"),
				pod("", corev1.PodPending, "memory", "2Gi"),
			},
			allocatable: corev1.ResourceList{},
			allocated:   list("cpu", "750m", "memory", "1Gi", "pods", "2"),
			allocating:  list("cpu", "1", "memory", "2Gi", "pods", "2"),
		},
		{
			name: "Finished pods are ignored.",
			pods: []*corev1.Pod{
				pod("a", corev1.PodSucceeded, "cpu", "4"),
				pod("a", corev1.PodFailed, "cpu", "4"),
				pod("a", corev1.PodRunning, "cpu", "1"),
			},
			allocatable: corev1.ResourceList{},
			allocated:   list("cpu", "1", "pods", "1"),
			allocating:  corev1.ResourceList{},
		},
		{
			name:        "A pod asking nothing still takes a pod slot.",
			pods:        []*corev1.Pod{pod("a", corev1.PodRunning)},
			allocatable: corev1.ResourceList{},
			allocated:   list("pods", "1"),
			allocating:  corev1.ResourceList{},
		},
		{
			name:        "A pod in an unknown phase is counted.",
			pods:        []*corev1.Pod{pod("a", corev1.PodUnknown, "cpu", "1")},
			allocatable: corev1.ResourceList{},
			allocated:   list("cpu", "1", "pods", "1"),
			allocating:  corev1.ResourceList{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			want := &clusterv1alpha1.ResourceSummary{Allocatable: tc.allocatable, Allocated: tc.allocated, Allocating: tc.allocating}
			if diff := cmp.Diff(want, resourceSummary(tc.nodes, tc.pods), sameQuantity); diff != "" {
				t.Errorf("summary differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestResourceSummaryLeavesObjectsUntouched(t *testing.T) {
	t.Parallel()
	n := node("a", true, false, "cpu", "2")
	p := pod("a", corev1.PodRunning, "cpu", "1")
	nodeBefore, podBefore := n.DeepCopy(), p.DeepCopy()
	resourceSummary([]*corev1.Node{n, n}, []*corev1.Pod{p, p})
	if diff := cmp.Diff(nodeBefore, n, sameQuantity); diff != "" {
		t.Errorf("node changed (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff(podBefore, p, sameQuantity); diff != "" {
		t.Errorf("pod changed (-before +after):\n%s", diff)
	}
}

func TestKeepFailed(t *testing.T) {
	t.Parallel()
	e := func(gv string, resources ...string) clusterv1alpha1.APIEnablement {
		out := clusterv1alpha1.APIEnablement{GroupVersion: gv}
		for _, r := range resources {
			out.Resources = append(out.Resources, clusterv1alpha1.APIResource{Name: r})
		}
		return out
	}
	last := []clusterv1alpha1.APIEnablement{e("apps/v1", "deployments"), e("metrics.k8s.io/v1beta1", "nodes", "pods"), e("v1", "pods")}
	fresh := []clusterv1alpha1.APIEnablement{e("apps/v1", "deployments", "statefulsets"), e("v1", "pods")}
	cases := []struct {
		name   string
		failed map[schema.GroupVersion]error
		want   []string
	}{
		{name: "A complete list replaces the last one.", want: []string{"apps/v1", "v1"}},
		{name: "A group version that failed keeps its last entry.",
			failed: map[schema.GroupVersion]error{{Group: "metrics.k8s.io", Version: "v1beta1"}: errors.New("503")},
			want:   []string{"apps/v1", "metrics.k8s.io/v1beta1", "v1"}},
		{name: "A failed group version never listed before stays out.",
			failed: map[schema.GroupVersion]error{{Group: "custom.metrics.k8s.io", Version: "v1beta2"}: errors.New("503")},
			want:   []string{"apps/v1", "v1"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for _, x := range keepFailed(slices.Clone(fresh), last, tc.failed) {
				got = append(got, x.GroupVersion)
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("group versions %v, want %v", got, tc.want)
			}
		})
	}
}
