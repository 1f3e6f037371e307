/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package rebalancer runs WorkloadRebalancers: for each workload listed,
// it asks the scheduler for a fresh decision by setting its binding's
// spec.rescheduleTriggeredAt, records the result per workload, and deletes
// the rebalancer once its ttlSecondsAfterFinished has passed.
package rebalancer

import (
	"context"
	"errors"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	appslisters "github.com/mco-org/mco/pkg/generated/listers/apps/v1alpha1"
)

// Event reasons on a rebalancer.
const (
	reasonRebalanced      = "WorkloadRebalanced"
	reasonRebalanceFailed = "WorkloadRebalanceFailed"
)

// Controller is the workload rebalancer controller. Its key is the
// rebalancer's name.
type Controller struct {
	mco         mcoclient.Interface
	rebalancers appslisters.WorkloadRebalancerLister
	bindings    *binding.Store
	recorder    record.EventRecorder
	now         func() time.Time
	loop        *controller.Controller[string]
}

// New builds the controller: every new or changed rebalancer is run.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	inf := c.MCOInformers.Apps().V1alpha1().WorkloadRebalancers()
	x := &Controller{mco: c.MCO, rebalancers: inf.Lister(), bindings: c.Bindings, recorder: c.NewRecorder(), now: time.Now}
	x.loop = controller.New("workloadRebalancer", x.sync, controller.WithBackoff(500*time.Millisecond, time.Minute))
	x.loop.WaitFor(inf.Informer().HasSynced)
	enqueue := func(obj any) {
		if r, ok := obj.(*appsv1alpha1.WorkloadRebalancer); ok {
			x.loop.Enqueue(r.Name)
		}
	}
	if _, err := inf.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue, UpdateFunc: func(_, obj any) { enqueue(obj) },
	}); err != nil {
		return nil, fmt.Errorf("workload rebalancer controller: %w", err)
	}
	return func(ctx context.Context) error { return x.loop.Run(ctx, c.Workers) }, nil
}

// sync runs the rebalancer's pending workloads, records their results, and
// deletes a finished rebalancer whose TTL has passed.
func (x *Controller) sync(ctx context.Context, name string) error {
	r, err := x.rebalancers.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("get workload rebalancer %s: %w", name, err)
	}
	if r.DeletionTimestamp != nil {
		return nil
	}
	if r.Status.ObservedGeneration == r.Generation && r.Status.FinishTime != nil {
		return x.expire(ctx, r)
	}
	got := map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload{}
	var errs []error
	for _, w := range pending(r) {
		o, err := x.rebalance(ctx, w)
		if err != nil {
			errs = append(errs, err)
			continue
		}
		got[w] = o
		x.record(r, o)
	}
	st := nextStatus(r, got, x.now())
	updated := r.DeepCopy()
	updated.Status = st
	if _, err := x.mco.AppsV1alpha1().WorkloadRebalancers().UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update status of workload rebalancer %s: %w", name, err)
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("workload rebalancer %s: %w", name, err)
	}
	return nil
}

// rebalance asks for a fresh decision for one workload. A workload without
// a binding fails for good; other errors are returned to be retried.
func (x *Controller) rebalance(ctx context.Context, w appsv1alpha1.ObjectReference) (appsv1alpha1.ObservedWorkload, error) {
	out := appsv1alpha1.ObservedWorkload{Workload: w}
	k := bindingKey(w)
	v, err := x.bindings.GetLive(ctx, k)
	if err == nil && (!sameTemplate(v.Spec, w) || v.Meta.DeletionTimestamp != nil) {
		err = apierrors.NewNotFound(workBindingResource(k), k.Name)
	}
	if apierrors.IsNotFound(err) {
		out.Result, out.Reason = appsv1alpha1.RebalanceFailed, appsv1alpha1.RebalanceObjectNotFound
		return out, nil
	}
	if err != nil {
		return out, fmt.Errorf("get %s: %w", k, err)
	}
	at := triggerTime(v.Spec, v.Status, x.now())
	v.Spec.RescheduleTriggeredAt = &at
	if _, err := x.bindings.Update(ctx, v); err != nil {
		if apierrors.IsNotFound(err) {
			out.Result, out.Reason = appsv1alpha1.RebalanceFailed, appsv1alpha1.RebalanceObjectNotFound
			return out, nil
		}
		return out, err
	}
	klog.FromContext(ctx).Info("Asked the scheduler for a fresh decision", "binding", k, "rescheduleTriggeredAt", at.UTC())
	out.Result = appsv1alpha1.RebalanceSuccessful
	return out, nil
}

// record writes an Event on the rebalancer for one result.
func (x *Controller) record(r *appsv1alpha1.WorkloadRebalancer, o appsv1alpha1.ObservedWorkload) {
	w := o.Workload
	what := w.Kind + " " + w.Name
	if w.Namespace != "" {
		what = w.Kind + " " + w.Namespace + "/" + w.Name
	}
	if o.Result == appsv1alpha1.RebalanceSuccessful {
		x.recorder.Eventf(r, corev1.EventTypeNormal, reasonRebalanced, "%s: asked the scheduler for a fresh placement", what)
		return
	}
	x.recorder.Eventf(r, corev1.EventTypeWarning, reasonRebalanceFailed, "%s: %s (the workload does not exist, or no policy propagates it)", what, o.Reason)
}

// expire deletes a finished rebalancer once its TTL has passed, or looks
// again when it will have.
func (x *Controller) expire(ctx context.Context, r *appsv1alpha1.WorkloadRebalancer) error {
	at, ok := expiry(r)
	if !ok {
		return nil
	}
	if wait := at.Sub(x.now()); wait > 0 {
		x.loop.EnqueueAfter(r.Name, wait)
		return nil
	}
	uid := r.UID
	err := x.mco.AppsV1alpha1().WorkloadRebalancers().Delete(ctx, r.Name, metav1.DeleteOptions{Preconditions: &metav1.Preconditions{UID: &uid}})
	if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
		return fmt.Errorf("delete workload rebalancer %s after its TTL: %w", r.Name, err)
	}
	klog.FromContext(ctx).Info("Deleted workload rebalancer after its TTL", "rebalancer", r.Name)
	return nil
}
