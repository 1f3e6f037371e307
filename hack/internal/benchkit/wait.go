package benchkit

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// WaitClustersReady waits until n Clusters on mco are Ready and list
// their APIs, so that nothing is scheduled against clusters mco knows
// nothing of yet.
func WaitClustersReady(ctx context.Context, mco mcoclient.Interface, n int, timeout time.Duration) error {
	var notReady []string
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		list, err := mco.ClusterV1alpha1().Clusters().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		notReady = notReady[:0]
		for _, c := range list.Items {
			if !meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) || len(c.Status.APIEnablements) == 0 {
				notReady = append(notReady, c.Name)
			}
		}
		return len(list.Items) == n && len(notReady) == 0, nil
	})
	if err != nil {
		return fmt.Errorf("members not Ready on mco (%v): %w", notReady, err)
	}
	return nil
}

// WaitQuiet waits until the server (named server among the scraped ones)
// sees no writes, Events included, for quiet, or fails after timeout.
func WaitQuiet(ctx context.Context, client kubernetes.Interface, server string, quiet, timeout time.Duration) error {
	servers := map[string]kubernetes.Interface{server: client}
	var last Delta
	err := wait.PollUntilContextTimeout(ctx, time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		before, err := ScrapeServers(ctx, servers)
		if err != nil {
			return false, err
		}
		Sleep(ctx, quiet)
		after, err := ScrapeServers(ctx, servers)
		if err != nil {
			return false, err
		}
		last = Diff(before, after, server)[0]
		return last.Total == 0 && last.Events == 0, nil
	})
	if err != nil {
		return fmt.Errorf("%s still written after %s: %.0f writes (%s) and %.0f events in the last %s: %w",
			server, timeout, last.Total, Largest(last.ByKey, 4), last.Events, quiet, err)
	}
	return nil
}
