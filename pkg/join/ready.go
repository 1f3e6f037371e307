package join

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// WaitReady waits until mco reports the Cluster Ready with its node
// summary and the complete list of its APIs, and returns it. On
// timeout the error carries the Ready condition's reason and message.
func WaitReady(ctx context.Context, mco mcoclient.Interface, name string, timeout time.Duration) (*clusterv1alpha1.Cluster, error) {
	var last *clusterv1alpha1.Cluster
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, fmt.Errorf("get cluster %s: %w", name, err)
		}
		last = c
		// Ready is published before the first node summary; wait for both,
		// so that callers can say how many nodes the member has. A member
		// whose kube-apiserver has just started may not list every API group
		// yet: wait for the complete list too, or the scheduler would keep
		// workloads off it for kinds it does serve.
		return meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) && c.Status.NodeSummary != nil &&
			meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionCompleteAPIEnablements), nil
	})
	if err == nil {
		return last, nil
	}
	why := "mco has not reported on it yet (is mco-controller-manager running?)"
	if last != nil {
		ready := meta.FindStatusCondition(last.Status.Conditions, clusterv1alpha1.ClusterConditionReady)
		switch {
		case ready != nil && ready.Status != metav1.ConditionTrue:
			why = fmt.Sprintf("%s: %s", ready.Reason, ready.Message)
		case ready != nil && last.Status.NodeSummary == nil:
			why = "Ready, but no node summary yet"
		case ready != nil:
			why = "Ready, but the list of its APIs is not complete yet"
		}
	}
	return last, fmt.Errorf("cluster %s not Ready within %s: %s", name, timeout, why)
}
