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

// Package federatedquota runs FederatedResourceQuotas on mco: each static
// assignment becomes a ResourceQuota in its member (one Work per
// cluster), and the status gathers the overall limit, what the
// namespace's placed workloads use, and each member's ResourceQuota
// status. The scheduler enforces the overall limit (pkg/scheduler).
package federatedquota

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"
	"k8s.io/klog/v2"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	policylisters "github.com/mco-org/mco/pkg/generated/listers/policy/v1alpha1"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	worklisters2 "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha2"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/works"
)

// ownWorksSize is how many of its own Work writes the controller
// remembers until the informer shows them.
const ownWorksSize = 256

// reasonNoSuchCluster is the Event reason for an assignment naming no
// joined cluster.
const reasonNoSuchCluster = "NoSuchCluster"

// Controller is the federated resource quota controller; its key is
// "namespace/name".
type Controller struct {
	recorder record.EventRecorder
	mco      mcoclient.Interface
	quotas   policylisters.FederatedResourceQuotaLister
	works    worklisters.WorkLister
	writer   *works.Writer
	bindings worklisters2.ResourceBindingLister
	loop     *controller.Controller[string]
}

// New builds the controller: a quota is looked at again when it changes,
// when one of its Works changes (member status), and when a binding of
// its namespace is placed anew.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	quotas := c.MCOInformers.Policy().V1alpha1().FederatedResourceQuotas()
	workInf := c.MCOInformers.Work().V1alpha1().Works()
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings()
	x := &Controller{mco: c.MCO, quotas: quotas.Lister(), works: workInf.Lister(), bindings: rbs.Lister(), recorder: c.NewRecorder()}
	var err error
	if x.writer, err = works.NewWriter(c.MCO, workInf.Informer(), ownWorksSize); err != nil {
		return nil, fmt.Errorf("federated resource quota controller: %w", err)
	}
	x.loop = controller.New("federatedResourceQuota", x.sync, controller.WithBackoff(200*time.Millisecond, 30*time.Second))
	x.loop.WaitFor(quotas.Informer().HasSynced, workInf.Informer().HasSynced, rbs.Informer().HasSynced)
	onQuota := func(obj any) {
		if k, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			x.loop.Enqueue(k)
		}
	}
	onWork := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if w, ok := obj.(*workv1alpha1.Work); ok && w.Labels[NameLabel] != "" {
			x.loop.Enqueue(w.Labels[NamespaceLabel] + "/" + w.Labels[NameLabel])
		}
	}
	onBinding := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if b, ok := obj.(*workv1alpha2.ResourceBinding); ok {
			x.enqueueNamespace(b.Namespace)
		}
	}
	for _, h := range []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandler
	}{
		{quotas.Informer(), cache.ResourceEventHandlerFuncs{AddFunc: onQuota, UpdateFunc: func(_, o any) { onQuota(o) }, DeleteFunc: onQuota}},
		{workInf.Informer(), cache.ResourceEventHandlerFuncs{AddFunc: onWork, UpdateFunc: func(_, o any) { onWork(o) }, DeleteFunc: onWork}},
		{rbs.Informer(), cache.ResourceEventHandlerFuncs{AddFunc: onBinding, DeleteFunc: onBinding,
			UpdateFunc: func(o, n any) {
				ob, nb := o.(*workv1alpha2.ResourceBinding), n.(*workv1alpha2.ResourceBinding)
				if ob.Generation != nb.Generation {
					onBinding(n)
				}
			}}},
	} {
		if _, err := h.inf.AddEventHandler(h.h); err != nil {
			return nil, fmt.Errorf("federated resource quota controller: %w", err)
		}
	}
	return func(ctx context.Context) error { return x.loop.Run(ctx, c.Workers) }, nil
}

// enqueueNamespace queues every quota of a namespace.
func (x *Controller) enqueueNamespace(ns string) {
	qs, _ := x.quotas.FederatedResourceQuotas(ns).List(labels.Everything())
	for _, q := range qs {
		x.loop.Enqueue(q.Namespace + "/" + q.Name)
	}
}

// sync brings a quota's Works and status up to date.
func (x *Controller) sync(ctx context.Context, key string) error {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return nil
	}
	cached, err := x.quotas.FederatedResourceQuotas(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("get federatedresourcequota %s: %w", key, err)
	}
	q := cached.DeepCopy()
	if q.DeletionTimestamp == nil && controller.AddFinalizer(&q.ObjectMeta, Finalizer) {
		if q, err = x.mco.PolicyV1alpha1().FederatedResourceQuotas(ns).Update(ctx, q, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("add finalizer to federatedresourcequota %s: %w", key, err)
		}
	}
	have, err := x.works.List(labels.SelectorFromSet(labels.Set{NamespaceLabel: ns, NameLabel: name}))
	if err != nil {
		return err
	}
	want, stale, err := plan(q, have)
	if err != nil {
		return err
	}
	var missing []string
	for _, w := range want {
		_, err := x.writer.Ensure(ctx, w)
		if errors.Is(err, works.ErrNoExecutionSpace) {
			// An assignment naming no cluster (yet): the others and the
			// status go on; look again later.
			cluster, _ := names.ClusterOf(w.Namespace)
			missing = append(missing, cluster)
			continue
		}
		if err != nil {
			return err
		}
	}
	if len(missing) > 0 {
		x.recorder.Eventf(q, corev1.EventTypeWarning, reasonNoSuchCluster,
			"No ResourceQuota for cluster(s) %s: no such cluster has joined", strings.Join(missing, ", "))
		x.loop.EnqueueAfter(key, 30*time.Second)
	}
	for _, w := range stale {
		if w.DeletionTimestamp != nil {
			continue
		}
		err := x.mco.WorkV1alpha1().Works(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete work %s/%s: %w", w.Namespace, w.Name, err)
		}
		klog.FromContext(ctx).V(2).Info("Withdrew a quota's ResourceQuota", "quota", key, "work", w.Namespace+"/"+w.Name)
	}
	if q.DeletionTimestamp != nil {
		if len(have) > 0 {
			return nil // each Work's deletion queues the quota again
		}
		if controller.RemoveFinalizer(&q.ObjectMeta, Finalizer) {
			if _, err := x.mco.PolicyV1alpha1().FederatedResourceQuotas(ns).Update(ctx, q, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("remove finalizer of federatedresourcequota %s: %w", key, err)
			}
		}
		return nil
	}
	return x.writeStatus(ctx, q, have)
}

// writeStatus writes the quota's status when it changed.
func (x *Controller) writeStatus(ctx context.Context, q *policyv1alpha1.FederatedResourceQuota, works []*workv1alpha1.Work) error {
	bindings, err := x.bindings.ResourceBindings(q.Namespace).List(labels.Everything())
	if err != nil {
		return err
	}
	st := desiredStatus(q, bindings, works)
	if apiequality.Semantic.DeepEqual(q.Status, st) {
		return nil
	}
	q.Status = st
	if _, err := x.mco.PolicyV1alpha1().FederatedResourceQuotas(q.Namespace).UpdateStatus(ctx, q, metav1.UpdateOptions{}); err != nil {
		return fmt.Errorf("update status of federatedresourcequota %s/%s: %w", q.Namespace, q.Name, err)
	}
	return nil
}
