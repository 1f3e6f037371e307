package join

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/names"
)

// UnjoinOptions name the Cluster to remove.
type UnjoinOptions struct {
	Name string
	// Timeout bounds the wait for mco to withdraw what it propagated to the
	// member and let the Cluster go (default a minute).
	Timeout time.Duration
	// Progress, when set, is told each step as it starts and, while
	// waiting, what is left.
	Progress func(step string)
}

func (o *UnjoinOptions) step(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// Unjoin deletes the Cluster, waits until mco has withdrawn its Works from
// the member and released it, then removes the credentials on mco and,
// when c.Member is set, what join created in the member.
func Unjoin(ctx context.Context, c Clients, o UnjoinOptions) error {
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	existing, err := c.MCO.ClusterV1alpha1().Clusters().Get(ctx, o.Name, metav1.GetOptions{})
	if err == nil && existing.Spec.SyncMode == clusterv1alpha1.Pull {
		return fmt.Errorf("cluster %s is in Pull mode: its agent registered it; remove it with kubectl mco unregister %s", o.Name, o.Name)
	}
	o.step("Deleting Cluster %s", o.Name)
	err = c.MCO.ClusterV1alpha1().Clusters().Delete(ctx, o.Name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete cluster %s: %w", o.Name, err)
	}
	if err := waitGone(ctx, c, o); err != nil {
		return err
	}
	o.step("Removing the member's credentials from mco")
	for _, name := range []string{o.Name, ImpersonatorSecretName(o.Name)} {
		err := c.MCOKube.CoreV1().Secrets(Namespace).Delete(ctx, name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete secret %s/%s on mco: %w", Namespace, name, err)
		}
	}
	if c.Member == nil {
		return nil
	}
	o.step("Removing mco's service accounts and roles from the member")
	return cleanMember(ctx, c, o.Name)
}

// waitGone waits for the Cluster to disappear, reporting the Works left in
// its execution space every few seconds.
func waitGone(ctx context.Context, c Clients, o UnjoinOptions) error {
	return WaitGone(ctx, c.MCO, o.Name, o.Timeout, "mco", "is mco-controller-manager running?", o.Progress)
}

// WaitGone waits up to timeout for Cluster name to disappear, telling
// progress every few seconds how many Works who (mco, or the Pull
// cluster's agent) has left to withdraw; hint says what to check when the
// wait runs out.
func WaitGone(ctx context.Context, mco mcoclient.Interface, name string, timeout time.Duration, who, hint string, progress func(string)) error {
	space := names.ExecutionSpace(name)
	last := time.Time{}
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		_, err := mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return true, nil
		}
		if err != nil {
			return false, fmt.Errorf("get cluster %s: %w", name, err)
		}
		if time.Since(last) >= 2*time.Second && progress != nil {
			last = time.Now()
			if works, err := mco.WorkV1alpha1().Works(space).List(ctx, metav1.ListOptions{}); err == nil {
				progress(fmt.Sprintf("Waiting for %s to withdraw %d Works from the member", who, len(works.Items)))
			}
		}
		return false, nil
	})
	if err != nil {
		return fmt.Errorf("cluster %s still exists after %s (%s): %w", name, timeout, hint, err)
	}
	return nil
}

// cleanMember deletes the roles, bindings and namespace join created in
// the member.
func cleanMember(ctx context.Context, c Clients, name string) error {
	rbac := c.Member.RbacV1()
	for _, role := range []string{controllerRoleName(name), ImpersonatorServiceAccount} {
		if err := rbac.ClusterRoleBindings().Delete(ctx, role, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete cluster role binding %s in the member: %w", role, err)
		}
		if err := rbac.ClusterRoles().Delete(ctx, role, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete cluster role %s in the member: %w", role, err)
		}
	}
	// The namespace holds the service accounts and their token secrets.
	err := c.Member.CoreV1().Namespaces().Delete(ctx, Namespace, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete namespace %s in the member: %w", Namespace, err)
	}
	return nil
}
