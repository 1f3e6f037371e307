package clusterstatus

import (
	"context"
	"fmt"
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	coordinationlisters "k8s.io/client-go/listers/coordination/v1"
	"k8s.io/utils/ptr"

	"github.com/mco-org/mco/pkg/join"
)

// LeaseNamespace holds one Lease per Cluster, renewed by this controller
// after every probe: the cluster controller marks a Cluster Unknown when
// its Lease is not renewed within the monitor grace period.
const LeaseNamespace = join.Namespace

// renewLease creates or renews the Cluster's Lease as holder
// (mco-controller-manager for a Push cluster, mco-agent for a Pull one).
func renewLease(ctx context.Context, kube kubernetes.Interface, leases coordinationlisters.LeaseLister, cluster, holder string, duration time.Duration, now time.Time) error {
	renew := metav1.NewMicroTime(now)
	existing, err := leases.Leases(LeaseNamespace).Get(cluster)
	if apierrors.IsNotFound(err) {
		lease := &coordinationv1.Lease{
			ObjectMeta: metav1.ObjectMeta{Name: cluster, Namespace: LeaseNamespace},
			Spec: coordinationv1.LeaseSpec{HolderIdentity: ptr.To(holder),
				LeaseDurationSeconds: ptr.To(int32(duration / time.Second)), RenewTime: &renew},
		}
		_, err = kube.CoordinationV1().Leases(LeaseNamespace).Create(ctx, lease, metav1.CreateOptions{})
		if apierrors.IsNotFound(err) {
			// A Cluster written by hand, not by join: its namespace may not exist yet.
			_, err = kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: LeaseNamespace}}, metav1.CreateOptions{})
			if err == nil || apierrors.IsAlreadyExists(err) {
				_, err = kube.CoordinationV1().Leases(LeaseNamespace).Create(ctx, lease, metav1.CreateOptions{})
			}
		}
		if apierrors.IsAlreadyExists(err) {
			return nil // renewed next time, from the cache
		}
	} else if err == nil {
		l := existing.DeepCopy()
		l.Spec.RenewTime = &renew
		l.Spec.HolderIdentity = ptr.To(holder)
		l.Spec.LeaseDurationSeconds = ptr.To(int32(duration / time.Second))
		_, err = kube.CoordinationV1().Leases(LeaseNamespace).Update(ctx, l, metav1.UpdateOptions{})
		if apierrors.IsConflict(err) {
			return nil
		}
	}
	if err != nil {
		return fmt.Errorf("renew lease of cluster %s: %w", cluster, err)
	}
	return nil
}

// deleteLease removes the Lease of a Cluster that is gone.
func deleteLease(ctx context.Context, kube kubernetes.Interface, cluster string) error {
	err := kube.CoordinationV1().Leases(LeaseNamespace).Delete(ctx, cluster, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete lease of cluster %s: %w", cluster, err)
	}
	return nil
}
