package localcluster

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
)

// fakeNodeAnnotation marks the nodes kwok manages.
const fakeNodeAnnotation = "kwok.x-k8s.io/node"

// fakeNodes returns the Node objects of a member; ready ones carry a
// Ready condition of their own (for members where no kwok writes one).
func fakeNodes(spec MemberSpec, ready bool) ([]*corev1.Node, error) {
	var conditions []corev1.NodeCondition
	if ready {
		now := metav1.Now()
		conditions = []corev1.NodeCondition{{Type: corev1.NodeReady, Status: corev1.ConditionTrue,
			Reason: "StaticNode", LastHeartbeatTime: now, LastTransitionTime: now}}
	}
	var out []*corev1.Node
	i := 0
	for _, group := range spec.Nodes {
		capacity := corev1.ResourceList{}
		for name, value := range map[corev1.ResourceName]string{
			corev1.ResourceCPU: group.CPU, corev1.ResourceMemory: group.Memory, corev1.ResourcePods: group.Pods,
		} {
			q, err := resource.ParseQuantity(value)
			if err != nil {
				return nil, fmt.Errorf("member %s: node %s %q: %w", spec.Name, name, value, err)
			}
			capacity[name] = q
		}
		for n := 0; n < group.Count; n++ {
			i++
			name := fmt.Sprintf("%s-node-%d", spec.Name, i)
			out = append(out, &corev1.Node{
				ObjectMeta: metav1.ObjectMeta{
					Name:        name,
					Annotations: map[string]string{fakeNodeAnnotation: "fake", resourceMetricsPathAnnotation: resourceMetricsPath(name)},
					Labels: map[string]string{
						"kubernetes.io/hostname":   name,
						"kubernetes.io/os":         "linux",
						"kubernetes.io/arch":       "amd64",
						"type":                     "kwok",
						corev1.LabelTopologyRegion: spec.Region,
						corev1.LabelTopologyZone:   spec.Zone,
						"node.kubernetes.io/exclude-from-external-load-balancers": "true",
					},
				},
				Status: corev1.NodeStatus{Capacity: capacity, Allocatable: capacity, Conditions: conditions},
			})
		}
	}
	return out, nil
}

// createNodes registers the member's fake nodes; existing ones are kept,
// told (when kwokPort is set) where kwok serves their kubelet endpoint now.
func createNodes(ctx context.Context, client kubernetes.Interface, spec MemberSpec, ready bool, kwokPort int) (int, error) {
	nodes, err := fakeNodes(spec, ready)
	if err != nil {
		return 0, err
	}
	for _, n := range nodes {
		created, err := client.CoreV1().Nodes().Create(ctx, n, metav1.CreateOptions{})
		if apierrors.IsAlreadyExists(err) {
			// A node kept from an earlier run learns where kwok serves its
			// metrics, should it predate that.
			patch := fmt.Sprintf(`{"metadata":{"annotations":{%q:%q}}}`, resourceMetricsPathAnnotation, resourceMetricsPath(n.Name))
			if _, err := client.CoreV1().Nodes().Patch(ctx, n.Name, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
				return 0, fmt.Errorf("annotate node %s: %w", n.Name, err)
			}
			if kwokPort == 0 {
				continue
			}
			status := fmt.Sprintf(`{"status":{"addresses":[{"type":"InternalIP","address":"127.0.0.1"}],"daemonEndpoints":{"kubeletEndpoint":{"Port":%d}}}}`, kwokPort)
			if _, err := client.CoreV1().Nodes().Patch(ctx, n.Name, types.MergePatchType, []byte(status), metav1.PatchOptions{}, "status"); err != nil {
				return 0, fmt.Errorf("point node %s at kwok: %w", n.Name, err)
			}
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("create node %s: %w", n.Name, err)
		}
		// Capacity lives in status, which create ignores.
		created.Status = n.Status
		if _, err := client.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{}); err != nil {
			return 0, fmt.Errorf("set capacity of node %s: %w", n.Name, err)
		}
	}
	return len(nodes), nil
}

// waitNodesReady waits until want nodes report Ready without taints left by
// the node lifecycle controller.
func waitNodesReady(ctx context.Context, client kubernetes.Interface, want int, timeout time.Duration) error {
	var ready int
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		list, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		ready = 0
		for _, n := range list.Items {
			if nodeReady(&n) && len(n.Spec.Taints) == 0 {
				ready++
			}
		}
		return ready >= want, nil
	})
	if err != nil {
		return fmt.Errorf("%d/%d nodes ready: %w", ready, want, err)
	}
	return nil
}

func nodeReady(n *corev1.Node) bool {
	for _, c := range n.Status.Conditions {
		if c.Type == corev1.NodeReady {
			return c.Status == corev1.ConditionTrue
		}
	}
	return false
}
