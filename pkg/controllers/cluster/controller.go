// Package cluster keeps each Cluster's execution space (karmada-es-<name>,
// where its Works live) and, when a Cluster is deleted, removes the
// execution space with its Works before letting the Cluster go.
package cluster

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	coordinationlisters "k8s.io/client-go/listers/coordination/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/clusterstatus"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
)

// Finalizer holds a Cluster until its execution space is gone.
const Finalizer = "karmada.io/cluster-controller"

// Controller is the cluster controller.
type Controller struct {
	mco        mcoclient.Interface
	kube       kubernetes.Interface
	clusters   clusterlisters.ClusterLister
	namespaces corelisters.NamespaceLister
	leases     coordinationlisters.LeaseLister
	health     shared.ClusterHealth
	started    time.Time
	now        func() time.Time
	loop       *controller.Controller[string]
}

// New builds the cluster controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	ns := c.Namespaces.Core().V1().Namespaces()
	leases := c.KubeInformers.Coordination().V1().Leases()
	x := &Controller{mco: c.MCO, kube: c.Kube, clusters: clusters.Lister(), namespaces: ns.Lister(), leases: leases.Lister(),
		health: c.ClusterHealth, started: time.Now(), now: time.Now}
	x.loop = controller.New("cluster", x.sync, controller.WithBackoff(100*time.Millisecond, 5*time.Second))
	x.loop.WaitFor(clusters.Informer().HasSynced, ns.Informer().HasSynced, leases.Informer().HasSynced)
	enqueue := func(obj any) {
		if cl, ok := obj.(*clusterv1alpha1.Cluster); ok {
			x.loop.Enqueue(cl.Name)
		}
	}
	if _, err := clusters.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue, UpdateFunc: func(_, obj any) { enqueue(obj) },
	}); err != nil {
		return nil, fmt.Errorf("cluster controller: %w", err)
	}
	// A deleted execution space is recreated while its Cluster exists.
	if _, err := ns.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if n, ok := obj.(*corev1.Namespace); ok {
			if cl, ok := names.ClusterOf(n.Name); ok {
				x.loop.Enqueue(cl)
			}
		}
	}}); err != nil {
		return nil, fmt.Errorf("cluster controller: %w", err)
	}
	return func(ctx context.Context) error {
		go wait.UntilWithContext(ctx, x.monitor, x.health.MonitorPeriod)
		return x.loop.Run(ctx, 1)
	}, nil
}

func (x *Controller) sync(ctx context.Context, name string) error {
	cached, err := x.clusters.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	c := cached.DeepCopy()
	space := names.ExecutionSpace(name)
	if c.DeletionTimestamp != nil {
		return x.finalize(ctx, c, space)
	}
	if controller.AddFinalizer(c, Finalizer) {
		if _, err := x.mco.ClusterV1alpha1().Clusters().Update(ctx, c, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("add finalizer to cluster %s: %w", name, err)
		}
	}
	if _, err := x.namespaces.Get(space); apierrors.IsNotFound(err) {
		_, err = x.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: space}}, metav1.CreateOptions{})
		if err != nil && !apierrors.IsAlreadyExists(err) {
			return fmt.Errorf("create execution space %s: %w", space, err)
		}
	}
	// NoSchedule taints follow the published Ready condition at once.
	ready := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady)
	if taints, changed := withReadyTaints(c.Spec.Taints, ready, x.now()); changed {
		c.Spec.Taints = taints
		if _, err := x.mco.ClusterV1alpha1().Clusters().Update(ctx, c, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("update taints of cluster %s: %w", name, err)
		}
	}
	return nil
}

// monitor marks Ready Unknown on the Clusters whose status stopped being
// renewed.
func (x *Controller) monitor(ctx context.Context) {
	clusters, err := x.clusters.List(labels.Everything())
	if err != nil {
		return
	}
	now := x.now()
	for _, cached := range clusters {
		lease, err := x.leases.Leases(clusterstatus.LeaseNamespace).Get(cached.Name)
		if err != nil {
			lease = nil
		}
		if !needsUnknown(cached, lease, x.started, now, x.health) {
			continue
		}
		c := cached.DeepCopy()
		meta.SetStatusCondition(&c.Status.Conditions, unknownCondition(c.Generation))
		if _, err := x.mco.ClusterV1alpha1().Clusters().UpdateStatus(ctx, c, metav1.UpdateOptions{}); err != nil {
			klog.FromContext(ctx).V(2).Info("Could not mark cluster Unknown", "cluster", c.Name, "err", err)
			continue
		}
		klog.FromContext(ctx).Info("Cluster status not renewed; Ready is Unknown", "cluster", c.Name)
	}
}

// finalize deletes the Works of the execution space (they withdraw their
// objects from the member as they go), then the execution space, and then
// releases the Cluster. The Works go first: a Pull cluster's agent holds
// its rights on them in the execution space, and needs them until the last
// Work is withdrawn.
func (x *Controller) finalize(ctx context.Context, c *clusterv1alpha1.Cluster, space string) error {
	if !controller.HasFinalizer(c, Finalizer) {
		return nil
	}
	_, err := x.kube.CoreV1().Namespaces().Get(ctx, space, metav1.GetOptions{})
	switch {
	case err == nil:
		works := x.mco.WorkV1alpha1().Works(space)
		left, err := works.List(ctx, metav1.ListOptions{})
		if err != nil {
			return fmt.Errorf("list works of execution space %s: %w", space, err)
		}
		for _, w := range left.Items {
			if w.DeletionTimestamp != nil {
				continue
			}
			if err := works.Delete(ctx, w.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("delete work %s/%s: %w", space, w.Name, err)
			}
		}
		if len(left.Items) > 0 {
			return controller.Retry("%d works of execution space %s are being withdrawn", len(left.Items), space)
		}
		if err := x.kube.CoreV1().Namespaces().Delete(ctx, space, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete execution space %s: %w", space, err)
		}
		return controller.Retry("execution space %s is being deleted", space)
	case !apierrors.IsNotFound(err):
		return fmt.Errorf("get execution space %s: %w", space, err)
	}
	if err := x.deleteOwnedSecrets(ctx, c); err != nil {
		return err
	}
	controller.RemoveFinalizer(c, Finalizer)
	if _, err := x.mco.ClusterV1alpha1().Clusters().Update(ctx, c, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("remove finalizer of cluster %s: %w", c.Name, err)
	}
	klog.FromContext(ctx).Info("Cluster removed with its execution space", "cluster", c.Name)
	return nil
}

// deleteOwnedSecrets deletes the credentials secrets the Cluster owns (join
// makes it their owner), as a garbage collector would; secrets a user
// wrote and only referenced stay.
func (x *Controller) deleteOwnedSecrets(ctx context.Context, c *clusterv1alpha1.Cluster) error {
	for _, ref := range []*clusterv1alpha1.LocalSecretReference{c.Spec.SecretRef, c.Spec.ImpersonatorSecretRef} {
		if ref == nil {
			continue
		}
		s, err := x.kube.CoreV1().Secrets(ref.Namespace).Get(ctx, ref.Name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			continue
		}
		if err != nil {
			return fmt.Errorf("get secret %s/%s of cluster %s: %w", ref.Namespace, ref.Name, c.Name, err)
		}
		if !metav1.IsControlledBy(s, c) {
			continue
		}
		err = x.kube.CoreV1().Secrets(ref.Namespace).Delete(ctx, ref.Name, metav1.DeleteOptions{
			Preconditions: &metav1.Preconditions{UID: &s.UID}})
		if err != nil && !apierrors.IsNotFound(err) && !apierrors.IsConflict(err) {
			return fmt.Errorf("delete secret %s/%s of cluster %s: %w", ref.Namespace, ref.Name, c.Name, err)
		}
	}
	return nil
}
