package member

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/controller"
)

// slimTyped is the transform of a member's cluster-wide typed informers:
// they exist for the Cluster's node and resource summaries, and a member
// may run tens of thousands of pods, so a Pod or a Node is cached with only
// what those summaries (see clusterstatus) and the FederatedHPA controller
// read; anything else loses its managedFields only.
func slimTyped(obj interface{}) (interface{}, error) {
	switch o := obj.(type) {
	case *corev1.Pod:
		return SlimPod(o), nil
	case *corev1.Node:
		return slimNode(o), nil
	}
	return controller.SlimMetadata(obj)
}

// SlimPod keeps a pod's identity, its phase, its node and what it requests
// (the resources of its containers and init containers, with their restart
// policy, which makes a sidecar, pod-level resources and overhead), for the
// summaries; and its labels, start time and Ready condition, which
// Kubernetes' replica calculator reads for the FederatedHPA controller
// (which pods a target selects, and which are ready or still starting);
// a Pull member's agent reports its pods so (registry/metrics.Snapshot).
func SlimPod(p *corev1.Pod) *corev1.Pod {
	meta := slimMeta(p.ObjectMeta)
	meta.Labels = p.Labels
	out := &corev1.Pod{
		ObjectMeta: meta,
		Spec: corev1.PodSpec{
			NodeName:  p.Spec.NodeName,
			Resources: p.Spec.Resources,
			Overhead:  p.Spec.Overhead,
		},
		Status: corev1.PodStatus{Phase: p.Status.Phase, StartTime: p.Status.StartTime},
	}
	for _, c := range p.Status.Conditions {
		if c.Type == corev1.PodReady {
			out.Status.Conditions = []corev1.PodCondition{{Type: c.Type, Status: c.Status, LastTransitionTime: c.LastTransitionTime}}
		}
	}
	for _, c := range p.Spec.Containers {
		out.Spec.Containers = append(out.Spec.Containers, corev1.Container{Name: c.Name, Resources: c.Resources})
	}
	for _, c := range p.Spec.InitContainers {
		out.Spec.InitContainers = append(out.Spec.InitContainers,
			corev1.Container{Name: c.Name, Resources: c.Resources, RestartPolicy: c.RestartPolicy})
	}
	return out
}

// slimNode keeps a node's identity, whether it is schedulable, its
// allocatable resources and its conditions' types and statuses; it drops
// the image list, which is often most of a node.
func slimNode(n *corev1.Node) *corev1.Node {
	out := &corev1.Node{
		ObjectMeta: slimMeta(n.ObjectMeta),
		Spec:       corev1.NodeSpec{Unschedulable: n.Spec.Unschedulable},
		Status:     corev1.NodeStatus{Allocatable: n.Status.Allocatable},
	}
	for _, c := range n.Status.Conditions {
		out.Status.Conditions = append(out.Status.Conditions, corev1.NodeCondition{Type: c.Type, Status: c.Status})
	}
	return out
}

func slimMeta(m metav1.ObjectMeta) metav1.ObjectMeta {
	return metav1.ObjectMeta{Name: m.Name, Namespace: m.Namespace, UID: m.UID, ResourceVersion: m.ResourceVersion,
		DeletionTimestamp: m.DeletionTimestamp}
}
