package rollout

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/rollout"
	"github.com/mco-org/mco/pkg/rolloutops"
)

// ensureRevision returns the number of the revision holding content,
// keeping it as a new ControllerRevision when it is new. Numbers count
// up from 1 in the order contents first appear.
func (r *Controller) ensureRevision(ctx context.Context, ns, name string, content map[string]any) (int64, error) {
	hash, err := rollout.Hash(content)
	if err != nil {
		return 0, err
	}
	cached, err := rolloutops.Revisions(r.revisions, ns, name)
	if err != nil {
		return 0, err
	}
	for _, cr := range cached {
		if cr.Labels[rolloutv1alpha1.RevisionHashLabel] == hash {
			return cr.Revision, nil
		}
	}
	// New to the cache: number it from what the server holds, which may
	// be ahead.
	api := r.kube.AppsV1().ControllerRevisions(ns)
	live, err := api.List(ctx, metav1.ListOptions{LabelSelector: rolloutv1alpha1.RolloutLabel + "=" + name})
	if err != nil {
		return 0, fmt.Errorf("list revisions of rollout %s/%s: %w", ns, name, err)
	}
	var last int64
	for _, cr := range live.Items {
		if cr.Labels[rolloutv1alpha1.RevisionHashLabel] == hash {
			return cr.Revision, nil
		}
		last = max(last, cr.Revision)
	}
	raw, err := json.Marshal(content)
	if err != nil {
		return 0, fmt.Errorf("encode revision: %w", err)
	}
	cr := &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: rollout.RevisionName(name, hash),
			Labels: map[string]string{rolloutv1alpha1.RolloutLabel: name, rolloutv1alpha1.RevisionHashLabel: hash},
		},
		Data:     runtime.RawExtension{Raw: raw},
		Revision: last + 1,
	}
	if cause := rollout.ChangeCause(content); cause != "" {
		cr.Annotations = map[string]string{rolloutv1alpha1.ChangeCauseAnnotation: cause}
	}
	created, err := api.Create(ctx, cr, metav1.CreateOptions{})
	if err != nil {
		return 0, fmt.Errorf("create revision %s/%s: %w", ns, cr.Name, err)
	}
	return created.Revision, nil
}

// prune deletes the revisions a rollout no longer refers to.
func (r *Controller) prune(ctx context.Context, ns, name string, keep map[int64]bool) error {
	list, err := rolloutops.Revisions(r.revisions, ns, name)
	if err != nil {
		return err
	}
	for _, cr := range list {
		if keep[cr.Revision] {
			continue
		}
		if err := r.kube.AppsV1().ControllerRevisions(ns).Delete(ctx, cr.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete revision %s/%s: %w", ns, cr.Name, err)
		}
	}
	return nil
}

// ensureRollout returns the Rollout record of a binding, creating it.
func (r *Controller) ensureRollout(ctx context.Context, ns, name string, ref workv1alpha2.ObjectReference) (*rolloutv1alpha1.Rollout, error) {
	ro, err := controller.OwnGet[*rolloutv1alpha1.Rollout](r.own, rolloutv1alpha1.Resource(rolloutv1alpha1.ResourcePluralRollout), ns, name)
	if err == nil {
		return ro, nil
	}
	if !apierrors.IsNotFound(err) {
		return nil, err
	}
	api := r.mco.RolloutV1alpha1().Rollouts(ns)
	want := &rolloutv1alpha1.Rollout{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name},
		Spec: rolloutv1alpha1.RolloutSpec{Resource: rolloutv1alpha1.ResourceReference{
			APIVersion: ref.APIVersion, Kind: ref.Kind, Namespace: ref.Namespace, Name: ref.Name}},
	}
	ro, err = api.Create(ctx, want, metav1.CreateOptions{})
	if apierrors.IsNotFound(err) && ref.Namespace == "" {
		// The records of cluster-scoped templates live in karmada-system,
		// which nothing else may have created yet.
		_, nsErr := r.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
		if nsErr != nil && !apierrors.IsAlreadyExists(nsErr) {
			return nil, fmt.Errorf("create namespace %s: %w", ns, nsErr)
		}
		ro, err = api.Create(ctx, want, metav1.CreateOptions{})
	}
	if apierrors.IsAlreadyExists(err) {
		ro, err = api.Get(ctx, name, metav1.GetOptions{})
	}
	if err != nil {
		return nil, fmt.Errorf("create rollout %s/%s: %w", ns, name, err)
	}
	r.own.Wrote(ro)
	return ro, nil
}

// forget deletes the Rollout and revisions of a binding that is gone or
// whose template no policy governs any more: it propagates as without
// staging.
func (r *Controller) forget(ctx context.Context, k binding.Key) error {
	ns := rollout.RecordNamespace(k.Namespace)
	if _, err := r.rollouts.Rollouts(ns).Get(k.Name); err != nil {
		return nil // nothing kept for it (revisions go before their record, metrics with it)
	}
	r.forgetMetrics(ns, k.Name)
	if err := r.prune(ctx, ns, k.Name, nil); err != nil {
		return err
	}
	err := r.mco.RolloutV1alpha1().Rollouts(ns).Delete(ctx, k.Name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete rollout %s/%s: %w", ns, k.Name, err)
	}
	return nil
}

// forgetMetrics drops a Rollout's metric series.
func (r *Controller) forgetMetrics(ns, name string) {
	r.metrics.RolloutClusters.DeletePartialMatch(prometheus.Labels{"namespace": ns, "rollout": name})
}
