package works

import (
	"context"
	"errors"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// ErrNoExecutionSpace: the Work's cluster has no execution space, having
// not joined (yet) or being on its way out. Errors that wrap it wrap
// controller.ErrRetry too.
var ErrNoExecutionSpace = errors.New("the cluster's execution space does not exist")

// Writer creates and updates Works, reading them from the Works informer
// together with its own writes.
type Writer struct {
	client mcoclient.Interface
	own    *controller.OwnWrites
}

// NewWriter returns a Writer over the Works informer inf that remembers up
// to size of its writes until inf shows them.
func NewWriter(client mcoclient.Interface, inf cache.SharedIndexInformer, size int) (*Writer, error) {
	own, err := controller.NewOwnWrites(inf, size)
	if err != nil {
		return nil, fmt.Errorf("work writer: %w", err)
	}
	return &Writer{client: client, own: own}, nil
}

// Ensure creates want or merges it into the Work there (Merge, with the
// owned annotation keys), and reports whether it wrote. Errors that wrap
// controller.ErrRetry say to look again later: the Work appeared, is being
// deleted or went during the write, or its execution space is missing
// (ErrNoExecutionSpace) or terminating.
func (w *Writer) Ensure(ctx context.Context, want *workv1alpha1.Work, ownedAnnotations ...string) (bool, error) {
	api := w.client.WorkV1alpha1().Works(want.Namespace)
	have, err := controller.OwnGet[*workv1alpha1.Work](w.own, workv1alpha1.Resource("works"), want.Namespace, want.Name)
	if apierrors.IsNotFound(err) {
		created, err := api.Create(ctx, want, metav1.CreateOptions{})
		switch {
		case apierrors.IsAlreadyExists(err):
			// Created by someone else since the read: merge into theirs.
			return false, controller.Retry("work %s/%s appeared while creating it", want.Namespace, want.Name)
		case apierrors.IsNotFound(err):
			return false, fmt.Errorf("%w: work %s/%s: %w", controller.ErrRetry, want.Namespace, want.Name, ErrNoExecutionSpace)
		case apierrors.HasStatusCause(err, corev1.NamespaceTerminatingCause):
			return false, controller.Retry("execution space %s is terminating", want.Namespace)
		case err != nil:
			return false, fmt.Errorf("create work %s/%s: %w", want.Namespace, want.Name, err)
		}
		w.own.Wrote(created)
		return true, nil
	}
	if err != nil {
		return false, fmt.Errorf("get work %s/%s: %w", want.Namespace, want.Name, err)
	}
	if have.DeletionTimestamp != nil {
		return false, controller.Retry("work %s/%s is being deleted", have.Namespace, have.Name)
	}
	updated := have.DeepCopy()
	if !Merge(updated, want, ownedAnnotations...) {
		return false, nil
	}
	out, err := api.Update(ctx, updated, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		return false, controller.Retry("work %s/%s was deleted while updating it", want.Namespace, want.Name)
	}
	if err != nil {
		return false, fmt.Errorf("update work %s/%s: %w", want.Namespace, want.Name, err)
	}
	w.own.Wrote(out)
	return true, nil
}
