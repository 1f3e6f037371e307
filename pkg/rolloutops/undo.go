package rolloutops

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/util/retry"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/rollout"
)

// Undo returns a template to an earlier revision, as `kubectl rollout
// undo` does for a Deployment: it marks the Rollout so that the return
// goes at once to every cluster, then writes the revision's content into
// the template. templates is the template's resource client (namespaced
// as the template is).
//
// The Rollout and the template are two objects, so these are two writes.
// Between them the mark is inert: the controller acts on it only when the
// template's content becomes revision to while from is current, which is
// what the second write does. When the second write fails, the mark is
// taken back (if that fails too, it stays inert until the template holds
// revision to's content again, which then goes to every cluster at once).
func Undo(ctx context.Context, mco mcoclient.Interface, templates dynamic.ResourceInterface, ro *rolloutv1alpha1.Rollout,
	to int64, content map[string]any, reason string) error {
	from := ro.Status.CurrentRevision
	if to == from {
		return fmt.Errorf("revision %d is the current one already", to)
	}
	rollouts := mco.RolloutV1alpha1().Rollouts(ro.Namespace)
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		live, err := rollouts.Get(ctx, ro.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		want := &rolloutv1alpha1.RollbackRequest{ToRevision: to, FromRevision: from, Reason: reason}
		if live.Spec.Rollback != nil && *live.Spec.Rollback == *want {
			return nil
		}
		live.Spec.Rollback = want
		_, err = rollouts.Update(ctx, live, metav1.UpdateOptions{})
		return err
	})
	if err != nil {
		return fmt.Errorf("mark rollout %s/%s for rollback: %w", ro.Namespace, ro.Name, err)
	}
	name := ro.Spec.Resource.Name
	err = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		live, err := templates.Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		_, err = templates.Update(ctx, rollout.WithContent(live, content), metav1.UpdateOptions{})
		return err
	})
	if err == nil {
		return nil
	}
	unmark(ctx, mco, ro, to, from)
	if apierrors.IsNotFound(err) {
		return fmt.Errorf("template %s %s is gone", ro.Spec.Resource.Kind, name)
	}
	return fmt.Errorf("write revision %d into %s %s: %w", to, ro.Spec.Resource.Kind, name, err)
}

// unmark takes back the rollback mark Undo wrote, unless another has
// replaced it; best effort, the mark being inert on its own.
func unmark(ctx context.Context, mco mcoclient.Interface, ro *rolloutv1alpha1.Rollout, to, from int64) {
	rollouts := mco.RolloutV1alpha1().Rollouts(ro.Namespace)
	_ = retry.RetryOnConflict(retry.DefaultRetry, func() error {
		live, err := rollouts.Get(ctx, ro.Name, metav1.GetOptions{})
		if err != nil {
			return err
		}
		if rb := live.Spec.Rollback; rb == nil || rb.ToRevision != to || rb.FromRevision != from {
			return nil
		}
		live.Spec.Rollback = nil
		_, err = rollouts.Update(ctx, live, metav1.UpdateOptions{})
		return err
	})
}
