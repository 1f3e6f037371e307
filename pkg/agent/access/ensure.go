package access

import (
	"context"
	"errors"
	"fmt"
	"time"

	authenticationv1 "k8s.io/api/authentication/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/utils/ptr"
)

// Ensure creates on mco the identity of cluster's agent and its rights, or
// brings them back to what For says.
func Ensure(ctx context.Context, kube kubernetes.Interface, cluster string) error {
	o := For(cluster)
	if err := ensureNamespace(ctx, kube, Namespace); err != nil {
		return err
	}
	if _, err := kube.CoreV1().ServiceAccounts(Namespace).Create(ctx, o.ServiceAccount, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create service account %s/%s: %w", Namespace, o.ServiceAccount.Name, err)
	}
	rbac := kube.RbacV1()
	if err := upsert(o.ClusterRole.Name, func() error {
		_, err := rbac.ClusterRoles().Create(ctx, o.ClusterRole, metav1.CreateOptions{})
		return err
	}, func() error {
		got, err := rbac.ClusterRoles().Get(ctx, o.ClusterRole.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		got.Rules, got.Labels = o.ClusterRole.Rules, o.ClusterRole.Labels
		_, err = rbac.ClusterRoles().Update(ctx, got, metav1.UpdateOptions{})
		return err
	}); err != nil {
		return err
	}
	for _, r := range o.Roles {
		if err := upsert(r.Namespace+"/"+r.Name, func() error {
			_, err := rbac.Roles(r.Namespace).Create(ctx, r, metav1.CreateOptions{})
			return err
		}, func() error {
			got, err := rbac.Roles(r.Namespace).Get(ctx, r.Name, metav1.GetOptions{})
			if err != nil {
				return err
			}
			got.Rules, got.Labels = r.Rules, r.Labels
			_, err = rbac.Roles(r.Namespace).Update(ctx, got, metav1.UpdateOptions{})
			return err
		}); err != nil {
			return err
		}
	}
	// Bindings name their subject and role only: an existing one is right.
	if _, err := rbac.ClusterRoleBindings().Create(ctx, o.ClusterBinding, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create cluster role binding %s: %w", o.ClusterBinding.Name, err)
	}
	for _, b := range o.RoleBindings {
		if _, err := rbac.RoleBindings(b.Namespace).Create(ctx, b, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create role binding %s/%s: %w", b.Namespace, b.Name, err)
		}
	}
	return nil
}

// upsert creates an object, or updates it when it exists.
func upsert(what string, create, update func() error) error {
	err := create()
	if apierrors.IsAlreadyExists(err) {
		err = update()
	}
	if err != nil {
		return fmt.Errorf("apply %s: %w", what, err)
	}
	return nil
}

func ensureNamespace(ctx context.Context, kube kubernetes.Interface, name string) error {
	_, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s: %w", name, err)
	}
	return nil
}

// Token issues a token of cluster's agent's ServiceAccount, valid for ttl
// (mco-apiserver may shorten it), with its expiry.
func Token(ctx context.Context, kube kubernetes.Interface, cluster string, ttl time.Duration) (string, time.Time, error) {
	req := &authenticationv1.TokenRequest{Spec: authenticationv1.TokenRequestSpec{ExpirationSeconds: ptr.To(int64(ttl / time.Second))}}
	got, err := kube.CoreV1().ServiceAccounts(Namespace).CreateToken(ctx, ServiceAccountName(cluster), req, metav1.CreateOptions{})
	if err != nil {
		return "", time.Time{}, fmt.Errorf("issue a token of %s/%s: %w", Namespace, ServiceAccountName(cluster), err)
	}
	return got.Status.Token, got.Status.ExpirationTimestamp.Time, nil
}

// Remove deletes the identity of cluster's agent and its rights, and what
// it reported (its metrics ConfigMap): every token it holds stops working
// at once.
func Remove(ctx context.Context, kube kubernetes.Interface, cluster string) error {
	o := For(cluster)
	rbac := kube.RbacV1()
	errs := []error{
		ignoreNotFound(kube.CoreV1().ServiceAccounts(Namespace).Delete(ctx, o.ServiceAccount.Name, metav1.DeleteOptions{})),
		ignoreNotFound(kube.CoreV1().ConfigMaps(Namespace).Delete(ctx, MetricsConfigMapName(cluster), metav1.DeleteOptions{})),
		ignoreNotFound(rbac.ClusterRoleBindings().Delete(ctx, o.ClusterBinding.Name, metav1.DeleteOptions{})),
		ignoreNotFound(rbac.ClusterRoles().Delete(ctx, o.ClusterRole.Name, metav1.DeleteOptions{})),
	}
	for _, b := range o.RoleBindings {
		errs = append(errs, ignoreNotFound(rbac.RoleBindings(b.Namespace).Delete(ctx, b.Name, metav1.DeleteOptions{})))
	}
	for _, r := range o.Roles {
		errs = append(errs, ignoreNotFound(rbac.Roles(r.Namespace).Delete(ctx, r.Name, metav1.DeleteOptions{})))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("remove the agent identity of cluster %s: %w", cluster, err)
	}
	return nil
}

func ignoreNotFound(err error) error {
	if apierrors.IsNotFound(err) {
		return nil
	}
	return err
}
