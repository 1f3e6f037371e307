package integration

import (
	"context"
	"fmt"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestClusterMonitor runs mco-controller-manager's cluster controller
// alone: nothing renews the Cluster's Lease (no clusterStatus controller),
// so past the grace period its Ready turns Unknown (ClusterStatusUnknown)
// and it gets the NoSchedule unreachable taint.
func TestClusterMonitor(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	client, err := mcoclient.NewForConfig(s.Config)
	if err != nil {
		t.Fatal(err)
	}
	createReadyCluster(t, client, "member1", "8", "32Gi")
	framework.StartControllerManager(t, s, "--controllers=cluster", "--cluster-status-update-frequency=1s",
		"--cluster-monitor-period=1s", "--cluster-monitor-grace-period=3s", "--cluster-startup-grace-period=3s")
	var last string
	err = wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 60*time.Second, true, func(ctx context.Context) (bool, error) {
		c, err := client.ClusterV1alpha1().Clusters().Get(ctx, "member1", metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		ready := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady)
		last = fmt.Sprintf("ready %+v taints %v", ready, c.Spec.Taints)
		return ready != nil && ready.Status == metav1.ConditionUnknown && ready.Reason == "ClusterStatusUnknown" &&
			len(c.Spec.Taints) == 1 && c.Spec.Taints[0].Key == clusterv1alpha1.TaintClusterUnreachable && c.Spec.Taints[0].Effect == "NoSchedule", nil
	})
	if err != nil {
		t.Fatalf("cluster not marked Unknown and unreachable: %v; last %s", err, last)
	}
}
