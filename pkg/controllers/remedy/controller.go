package remedy

import (
	"context"
	"fmt"
	"slices"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	remedylisters "github.com/mco-org/mco/pkg/generated/listers/remedy/v1alpha1"
)

// Controller keeps each Cluster's status.remedyActions.
type Controller struct {
	mco      mcoclient.Interface
	clusters clusterlisters.ClusterLister
	remedies remedylisters.RemedyLister
	loop     *controller.Controller[string]
}

// New builds the remedy controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	remedies := c.MCOInformers.Remedy().V1alpha1().Remedies()
	r := &Controller{mco: c.MCO, clusters: clusters.Lister(), remedies: remedies.Lister()}
	r.loop = controller.New("remedy", r.sync)
	r.loop.WaitFor(clusters.Informer().HasSynced, remedies.Informer().HasSynced)
	enqueueCluster := func(obj any) {
		if k, err := cache.DeletionHandlingMetaNamespaceKeyFunc(obj); err == nil {
			r.loop.Enqueue(k)
		}
	}
	if _, err := clusters.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueueCluster, UpdateFunc: func(_, n any) { enqueueCluster(n) },
	}); err != nil {
		return nil, fmt.Errorf("remedy controller: %w", err)
	}
	every := func(any) { r.enqueueAll() }
	if _, err := remedies.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: every, UpdateFunc: func(any, any) { every(nil) }, DeleteFunc: every,
	}); err != nil {
		return nil, fmt.Errorf("remedy controller: %w", err)
	}
	return func(ctx context.Context) error { return r.loop.Run(ctx, 1) }, nil
}

func (r *Controller) enqueueAll() {
	list, _ := r.clusters.List(labels.Everything())
	for _, c := range list {
		r.loop.Enqueue(c.Name)
	}
}

// sync writes one Cluster's remedy actions when they changed.
func (r *Controller) sync(ctx context.Context, name string) error {
	cached, err := r.clusters.Get(name)
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return err
	}
	list, err := r.remedies.List(labels.Everything())
	if err != nil {
		return err
	}
	want := Actions(list, cached)
	if slices.Equal(want, cached.Status.RemedyActions) {
		return nil
	}
	c := cached.DeepCopy()
	c.Status.RemedyActions = want
	if _, err := r.mco.ClusterV1alpha1().Clusters().UpdateStatus(ctx, c, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("update remedy actions of cluster %s: %w", name, err)
	}
	return nil
}
