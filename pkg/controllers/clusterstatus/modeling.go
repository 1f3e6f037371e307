package clusterstatus

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/workload"
)

// allocatableModelings counts the member's nodes per grade of models, as
// Karmada's CustomizedClusterResourceModeling does: a node's free amount
// of a resource is its allocatable minus what its non-terminal pods
// request, its grade for that resource is the highest grade whose lower
// bound that amount reaches, and the node's grade is the lowest over the
// models' resources. Every grade is listed, with 0 for none. Nodes that
// are unschedulable or have no free pod slot are not counted: no replica
// can go there. Without models the answer is nil.
func allocatableModelings(models []clusterv1alpha1.ResourceModel, nodes []*corev1.Node, pods []*corev1.Pod) []clusterv1alpha1.AllocatableModeling {
	if len(models) == 0 {
		return nil
	}
	out := make([]clusterv1alpha1.AllocatableModeling, len(models))
	for i := range models {
		out[i].Grade = models[i].Grade
	}
	used := requestsByNode(pods)
	for _, n := range nodes {
		if n.Spec.Unschedulable {
			continue
		}
		free := freeOf(n.Status.Allocatable, used[n.Name])
		if pods, ok := free[corev1.ResourcePods]; ok && pods.Sign() <= 0 {
			continue
		}
		out[gradeOf(models, free)].Count++
	}
	return out
}

// requestsByNode adds up, per node, the requests of the pods bound to it
// that have not finished, with one pod slot each.
func requestsByNode(pods []*corev1.Pod) map[string]corev1.ResourceList {
	used := map[string]corev1.ResourceList{}
	for _, p := range pods {
		if p.Spec.NodeName == "" || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
			continue
		}
		req := workload.PodRequests(&p.Spec)
		req[corev1.ResourcePods] = resource.MustParse("1")
		list := used[p.Spec.NodeName]
		if list == nil {
			list = corev1.ResourceList{}
			used[p.Spec.NodeName] = list
		}
		addList(list, req)
	}
	return used
}

// freeOf is allocatable minus used, resource by resource.
func freeOf(allocatable, used corev1.ResourceList) corev1.ResourceList {
	free := make(corev1.ResourceList, len(allocatable))
	for name, q := range allocatable {
		left := q.DeepCopy()
		if u, ok := used[name]; ok {
			left.Sub(u)
		}
		free[name] = left
	}
	return free
}

// gradeOf returns the index in models of the grade a node with free
// resources falls in. Models are sorted by grade with the lowest bounds at
// zero (the API's defaulting sees to it), so index 0 is always a match; a
// resource the node does not report counts as zero of it.
func gradeOf(models []clusterv1alpha1.ResourceModel, free corev1.ResourceList) int {
	grade := len(models) - 1
	for _, r := range models[0].Ranges {
		amount := free[r.Name]
		highest := 0
		for i := 1; i <= grade; i++ {
			low, ok := lowerBound(&models[i], r.Name)
			if !ok || amount.Cmp(low) < 0 {
				break
			}
			highest = i
		}
		grade = highest
	}
	return grade
}

// lowerBound is a grade's Min for the named resource.
func lowerBound(model *clusterv1alpha1.ResourceModel, name corev1.ResourceName) (resource.Quantity, bool) {
	for _, r := range model.Ranges {
		if r.Name == name {
			return r.Min, true
		}
	}
	return resource.Quantity{}, false
}
