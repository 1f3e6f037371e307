package namespace

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// SystemNamespaces exist on every mco-apiserver and cannot be deleted.
var SystemNamespaces = []string{metav1.NamespaceDefault, metav1.NamespaceSystem, metav1.NamespacePublic}

// EnsureSystemNamespaces creates the system namespaces that are missing,
// retrying while the server finishes starting.
func EnsureSystemNamespaces(ctx context.Context, kube kubernetes.Interface) error {
	for _, name := range SystemNamespaces {
		err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
			_, err := kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
			if err == nil || apierrors.IsAlreadyExists(err) {
				return true, nil
			}
			klog.FromContext(ctx).V(2).Info("Creating system namespace, will retry", "namespace", name, "err", err)
			return false, nil
		})
		if err != nil {
			return fmt.Errorf("create namespace %q: %w", name, err)
		}
	}
	return nil
}
