package execution

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/addon"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/metrics"
)

// withdraw deletes a deleted Work's objects from the member (or, to be
// preserved, leaves them there without mco's marks), then lets the Work go.
// A member that cannot be reached holds the Work, unless its Cluster is
// being deleted or is gone.
func (e *Controller) withdraw(ctx context.Context, cluster string, w *workv1alpha1.Work) error {
	if !controller.HasFinalizer(w, workv1alpha1.ExecutionControllerFinalizer) {
		return nil
	}
	preserve := w.Spec.PreserveResourcesOnDeletion != nil && *w.Spec.PreserveResourcesOnDeletion
	if err := e.withdrawObjects(ctx, cluster, w, preserve); err != nil {
		c, getErr := e.clusters.Get(cluster)
		if getErr == nil && c.DeletionTimestamp == nil {
			return err
		}
		klog.FromContext(ctx).Info("Cluster is gone or leaving; dropping its work without withdrawing", "work", w.Namespace+"/"+w.Name, "reason", err.Error())
	}
	controller.RemoveFinalizer(w, workv1alpha1.ExecutionControllerFinalizer)
	if _, err := e.mco.WorkV1alpha1().Works(w.Namespace).Update(ctx, w, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("remove finalizer of work %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}

// release lets a deleted Work of a cluster this process does not reach (a
// Pull cluster's, applied by its agent) go when no agent is left to
// withdraw it: its Cluster is gone, or leaving without being Ready.
// Otherwise the Work is the agent's.
func (e *Controller) release(ctx context.Context, cluster string, w *workv1alpha1.Work) error {
	if w.DeletionTimestamp == nil || !controller.HasFinalizer(w, workv1alpha1.ExecutionControllerFinalizer) {
		return nil
	}
	c, err := e.clusters.Get(cluster)
	if err == nil && (c.DeletionTimestamp == nil || meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady)) {
		if c.DeletionTimestamp != nil {
			// Its agent withdraws it; looked at again in case it stops.
			e.enqueueAfter(cluster, w.Name, namespaceRetry)
		}
		return nil
	}
	controller.RemoveFinalizer(w, workv1alpha1.ExecutionControllerFinalizer)
	if _, err := e.mco.WorkV1alpha1().Works(w.Namespace).Update(ctx, w, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("remove finalizer of work %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}

// withdrawObjects deletes each object of a Work from its member, or with
// preserve releases it there.
func (e *Controller) withdrawObjects(ctx context.Context, cluster string, w *workv1alpha1.Work, preserve bool) error {
	clients, err := e.members.Get(cluster)
	if err != nil {
		return err
	}
	manifests, err := decodeManifests(w)
	if err != nil {
		return nil // nothing of it can have been applied
	}
	defaultNamespaces(clients, w, manifests)
	if w.Labels[addon.AddonLabel] != "" && !preserve {
		// An add-on's objects go as helm uninstall removes them, and an
		// object moving to another of its Works stays.
		return e.deleteObjects(ctx, clients, w, manifests)
	}
	for _, m := range manifests {
		if preserve {
			if err := releaseManifest(ctx, clients, m); err != nil {
				return err
			}
			continue
		}
		err := deleteManifest(ctx, clients, m)
		e.metrics.DeleteResourceFromCluster.WithLabelValues(metrics.Result(err), m.GetAPIVersion(), m.GetKind(), cluster).Inc()
		if err != nil {
			return err
		}
	}
	return nil
}
