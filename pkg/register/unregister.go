package register

import (
	"context"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/agent/access"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/join"
)

// UnregisterOptions name the Pull cluster to remove.
type UnregisterOptions struct {
	Name string
	// Namespace of the agent in the member (DefaultNamespace when empty).
	Namespace string
	// Timeout bounds the wait for the Works to be withdrawn and the
	// Cluster to go (default a minute).
	Timeout  time.Duration
	Progress func(step string)
}

func (o *UnregisterOptions) step(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(fmt.Sprintf(format, args...))
	}
}

// Unregister deletes the Pull Cluster on mco and waits until it is gone
// (its agent withdraws the Works from the member; mco lets them go once
// the agent no longer keeps the Cluster Ready), revokes the agent's
// credential and, when member is set, removes the agent from the member.
// It refuses a Push cluster.
func Unregister(ctx context.Context, mcoKube kubernetes.Interface, mco mcoclient.Interface, member kubernetes.Interface, o UnregisterOptions) error {
	if o.Timeout == 0 {
		o.Timeout = time.Minute
	}
	if o.Namespace == "" {
		o.Namespace = DefaultNamespace
	}
	c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, o.Name, metav1.GetOptions{})
	switch {
	case err == nil && c.Spec.SyncMode != clusterv1alpha1.Pull:
		return fmt.Errorf("cluster %s is in %s mode: remove it with kubectl mco unjoin %s", o.Name, c.Spec.SyncMode, o.Name)
	case err == nil:
		o.step("Deleting Cluster %s", o.Name)
		if err := mco.ClusterV1alpha1().Clusters().Delete(ctx, o.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete cluster %s: %w", o.Name, err)
		}
		if err := join.WaitGone(ctx, mco, o.Name, o.Timeout, "the agent", "is its agent running? mco withdraws nothing from a Pull member itself", o.Progress); err != nil {
			return err
		}
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("get cluster %s: %w", o.Name, err)
	}
	o.step("Revoking the agent's credential on mco")
	if err := access.Remove(ctx, mcoKube, o.Name); err != nil {
		return err
	}
	if member == nil {
		return nil
	}
	o.step("Removing the agent from the member (namespace %s)", o.Namespace)
	return removeAgent(ctx, member, o.Namespace)
}

// removeAgent deletes what register created in the member.
func removeAgent(ctx context.Context, member kubernetes.Interface, ns string) error {
	if err := member.RbacV1().ClusterRoleBindings().Delete(ctx, AgentName, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete cluster role binding %s in the member: %w", AgentName, err)
	}
	got, err := member.CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("get namespace %s in the member: %w", ns, err)
	}
	if got.Labels[managedLabel] != "" {
		if err := member.CoreV1().Namespaces().Delete(ctx, ns, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete namespace %s in the member: %w", ns, err)
		}
		return nil
	}
	// A namespace register did not create: only the agent's objects go.
	for _, del := range []func() error{
		func() error { return member.AppsV1().Deployments(ns).Delete(ctx, AgentName, metav1.DeleteOptions{}) },
		func() error { return member.CoreV1().Secrets(ns).Delete(ctx, AgentName, metav1.DeleteOptions{}) },
		func() error {
			return member.CoreV1().ServiceAccounts(ns).Delete(ctx, AgentName, metav1.DeleteOptions{})
		},
	} {
		if err := del(); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("remove the agent from namespace %s of the member: %w", ns, err)
		}
	}
	return nil
}
