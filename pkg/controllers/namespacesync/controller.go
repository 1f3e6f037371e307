// Package namespacesync copies every namespace created on mco to every
// member cluster, as Karmada's namespace sync controller does: one Work per
// namespace and cluster, removed when the namespace is gone (not while it
// terminates: its content is withdrawn first) or stops propagating. Reserved namespaces, those matching
// --skipped-propagating-namespaces and those labelled
// namespace.karmada.io/skip-auto-propagation=true stay on mco.
package namespacesync

import (
	"context"
	"errors"
	"fmt"
	"regexp"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/works"
)

// ownWorksSize is how many of its own Work writes the controller
// remembers until the informer shows them: a namespace's Works for every
// cluster, for a burst of namespaces.
const ownWorksSize = 4096

// Controller is the namespace sync controller; its keys are namespace names.
type Controller struct {
	mco        mcoclient.Interface
	namespaces corelisters.NamespaceLister
	clusters   clusterlisters.ClusterLister
	works      worklisters.WorkLister
	writer     *works.Writer
	skipped    []*regexp.Regexp
	loop       *controller.Controller[string]
}

// New builds the namespace sync controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	ns := c.Namespaces.Core().V1().Namespaces()
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	workInf := c.MCOInformers.Work().V1alpha1().Works()
	x := &Controller{mco: c.MCO, namespaces: ns.Lister(), clusters: clusters.Lister(), works: workInf.Lister(),
		skipped: c.SkippedPropagatingNamespaces}
	var err error
	if x.writer, err = works.NewWriter(c.MCO, workInf.Informer(), ownWorksSize); err != nil {
		return nil, fmt.Errorf("namespace sync controller: %w", err)
	}
	x.loop = controller.New("namespace", x.sync)
	x.loop.WaitFor(ns.Informer().HasSynced, clusters.Informer().HasSynced, workInf.Informer().HasSynced)
	handlers := []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandler
	}{
		{ns.Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc:    x.enqueueNamespace,
			UpdateFunc: func(_, obj any) { x.enqueueNamespace(obj) },
			DeleteFunc: x.enqueueNamespace,
		}},
		// A new cluster gets every namespace; a leaving one needs none.
		{clusters.Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { x.enqueueAll() },
			UpdateFunc: func(oldObj, newObj any) {
				o, n := oldObj.(*clusterv1alpha1.Cluster), newObj.(*clusterv1alpha1.Cluster)
				if (o.DeletionTimestamp == nil) != (n.DeletionTimestamp == nil) {
					x.enqueueAll()
				}
			},
			DeleteFunc: func(any) { x.enqueueAll() },
		}},
		// A Work edited or deleted by hand is written again.
		{workInf.Informer(), cache.ResourceEventHandlerFuncs{
			UpdateFunc: func(oldObj, newObj any) {
				o, n := oldObj.(*workv1alpha1.Work), newObj.(*workv1alpha1.Work)
				if o.Generation != n.Generation || n.DeletionTimestamp != nil || o.Labels[WorkLabel] != n.Labels[WorkLabel] {
					x.enqueueWork(oldObj)
					x.enqueueWork(newObj)
				}
			},
			DeleteFunc: x.enqueueWork,
		}},
	}
	for _, h := range handlers {
		if _, err := h.inf.AddEventHandler(h.h); err != nil {
			return nil, fmt.Errorf("namespace controller: %w", err)
		}
	}
	return func(ctx context.Context) error { return x.loop.Run(ctx, c.Workers) }, nil
}

func (x *Controller) enqueueNamespace(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if ns, ok := obj.(*corev1.Namespace); ok && !Reserved(ns.Name) {
		x.loop.Enqueue(ns.Name)
	}
}

func (x *Controller) enqueueWork(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	if w, ok := obj.(*workv1alpha1.Work); ok && w.Labels[WorkLabel] != "" {
		x.loop.Enqueue(w.Labels[WorkLabel])
	}
}

func (x *Controller) enqueueAll() {
	all, _ := x.namespaces.List(labels.Everything())
	for _, ns := range all {
		x.enqueueNamespace(ns)
	}
}

// sync writes, updates and removes the Works of one namespace.
func (x *Controller) sync(ctx context.Context, name string) error {
	ns, err := x.namespaces.Get(name)
	switch {
	case apierrors.IsNotFound(err):
		ns = nil
	case err != nil:
		return fmt.Errorf("get namespace %s: %w", name, err)
	}
	clusters, err := x.clusters.List(labels.Everything())
	if err != nil {
		return fmt.Errorf("list clusters: %w", err)
	}
	have, err := x.works.List(labels.SelectorFromSet(labels.Set{WorkLabel: name}))
	if err != nil {
		return fmt.Errorf("list works of namespace %s: %w", name, err)
	}
	want, stale, err := plan(ns, Propagates(ns, x.skipped), clusters, have)
	if err != nil {
		return err
	}
	var failed, waiting []error
	for _, w := range stale {
		if err := x.deleteWork(ctx, w); err != nil {
			failed = append(failed, err)
			continue
		}
		klog.FromContext(ctx).V(2).Info("Withdrawing namespace from cluster", "namespace", name, "work", w.Namespace+"/"+w.Name)
	}
	// One cluster's trouble (its execution space not there yet) does not
	// hold the others back.
	for _, w := range want {
		switch _, err := x.writer.Ensure(ctx, w); {
		case errors.Is(err, controller.ErrRetry):
			waiting = append(waiting, err)
		case err != nil:
			failed = append(failed, err)
		}
	}
	if len(failed) > 0 {
		return errors.Join(failed...)
	}
	return errors.Join(waiting...)
}

// deleteWork deletes a Work; the execution controller then deletes the
// namespace from the member if mco created it there.
func (x *Controller) deleteWork(ctx context.Context, w *workv1alpha1.Work) error {
	err := x.mco.WorkV1alpha1().Works(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{})
	if err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("delete work %s/%s: %w", w.Namespace, w.Name, err)
	}
	return nil
}
