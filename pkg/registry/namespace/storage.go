// Package namespace serves namespaces with Kubernetes' two-phase deletion:
// a namespace whose spec.finalizers is not empty turns Terminating on delete
// and is removed only once its finalizers are gone.
package namespace

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	genericapirequest "k8s.io/apiserver/pkg/endpoints/request"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"

	"github.com/mco-org/mco/pkg/registry/resource"
)

// REST is the namespaces resource.
type REST struct {
	*resource.REST
}

// New wraps the generic storage of namespaces.
func New(main *resource.REST) *REST {
	return &REST{REST: main}
}

// Delete marks a namespace Terminating while it has finalizers and removes
// it once it has none.
func (r *REST) Delete(ctx context.Context, name string, deleteValidation rest.ValidateObjectFunc, options *metav1.DeleteOptions) (runtime.Object, bool, error) {
	obj, err := r.Get(ctx, name, &metav1.GetOptions{})
	if err != nil {
		return nil, false, err
	}
	ns := obj.(*corev1.Namespace)
	if options == nil {
		options = metav1.NewDeleteOptions(0)
	}
	if err := checkPreconditions(ns, options.Preconditions); err != nil {
		return nil, false, err
	}
	if len(ns.Spec.Finalizers) == 0 {
		return r.Store.Delete(ctx, name, deleteValidation, options)
	}
	if ns.DeletionTimestamp != nil {
		// Already terminating; the namespace controller finishes the job.
		return ns, false, nil
	}
	if deleteValidation != nil {
		if err := deleteValidation(ctx, ns); err != nil {
			return nil, false, err
		}
	}
	if dryRun(options) {
		return ns, false, nil
	}
	key, err := r.Store.KeyFunc(genericapirequest.WithNamespace(ctx, ""), name)
	if err != nil {
		return nil, false, err
	}
	out := &corev1.Namespace{}
	precond := storage.NewUIDPreconditions(string(ns.UID))
	err = r.Store.Storage.GuaranteedUpdate(ctx, key, out, false, precond,
		storage.SimpleUpdate(func(existing runtime.Object) (runtime.Object, error) {
			cur := existing.(*corev1.Namespace)
			if cur.DeletionTimestamp == nil {
				now := metav1.Now()
				zero := int64(0)
				cur.DeletionTimestamp = &now
				cur.DeletionGracePeriodSeconds = &zero
			}
			cur.Status.Phase = corev1.NamespaceTerminating
			return cur, nil
		}), false, nil)
	if err != nil {
		return nil, false, fmt.Errorf("mark namespace %q terminating: %w", name, err)
	}
	return out, false, nil
}

func checkPreconditions(ns *corev1.Namespace, p *metav1.Preconditions) error {
	if p == nil {
		return nil
	}
	if p.UID != nil && *p.UID != ns.UID {
		return apierrors.NewConflict(corev1.Resource("namespaces"), ns.Name,
			fmt.Errorf("precondition failed: UID in precondition: %v, UID in object meta: %v", *p.UID, ns.UID))
	}
	if p.ResourceVersion != nil && *p.ResourceVersion != ns.ResourceVersion {
		return apierrors.NewConflict(corev1.Resource("namespaces"), ns.Name,
			fmt.Errorf("precondition failed: ResourceVersion in precondition: %v, ResourceVersion in object meta: %v", *p.ResourceVersion, ns.ResourceVersion))
	}
	return nil
}

func dryRun(o *metav1.DeleteOptions) bool {
	for _, d := range o.DryRun {
		if d == metav1.DryRunAll {
			return true
		}
	}
	return false
}
