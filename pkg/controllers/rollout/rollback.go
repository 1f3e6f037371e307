package rollout

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/rolloutops"
)

// rollBack writes revision to back into the template, marked as a
// rollback (onFailure: Rollback).
func (r *Controller) rollBack(ctx context.Context, ro *rolloutv1alpha1.Rollout, tmpl *unstructured.Unstructured, to int64, reason string) error {
	list, err := rolloutops.Revisions(r.revisions, ro.Namespace, ro.Name)
	if err != nil {
		return err
	}
	cr := rollout.Find(list, to)
	if cr == nil {
		return fmt.Errorf("rollback of rollout %s/%s: revision %d is not kept", ro.Namespace, ro.Name, to)
	}
	content, err := rollout.Decode(cr)
	if err != nil {
		return err
	}
	res, ok := r.templates.ByGVK(tmpl.GroupVersionKind())
	if !ok {
		return fmt.Errorf("rollback of rollout %s/%s: %s is not a template kind", ro.Namespace, ro.Name, tmpl.GroupVersionKind())
	}
	client := r.dynamic.Resource(res.GVR).Namespace(tmpl.GetNamespace())
	return rolloutops.Undo(ctx, r.mco, client, ro, to, content, reason)
}
