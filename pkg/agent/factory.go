package agent

import (
	"context"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/fields"

	"github.com/mco-org/mco/pkg/controller"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	mcoinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions"
	clusterinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions/cluster"
	"github.com/mco-org/mco/pkg/names"
)

// ownFactory is the informer factory the agent's controllers share: Works
// of the agent's execution namespace only, its own Cluster only (listed by
// name, so that its identity needs no right on other Clusters), and the
// cluster-wide kinds interpretation reads (ResourceInterpreterCustomizations).
type ownFactory struct {
	mcoinformers.SharedInformerFactory
	clusters mcoinformers.SharedInformerFactory
}

var _ mcoinformers.SharedInformerFactory = &ownFactory{}

func newOwnFactory(mco mcoclient.Interface, cluster string) *ownFactory {
	const resync = 0
	byName := func(o *metav1.ListOptions) {
		o.FieldSelector = fields.OneTermEqualSelector("metadata.name", cluster).String()
	}
	return &ownFactory{
		SharedInformerFactory: mcoinformers.NewSharedInformerFactoryWithOptions(mco, resync,
			mcoinformers.WithNamespace(names.ExecutionSpace(cluster)), mcoinformers.WithTransform(controller.SlimMetadata)),
		clusters: mcoinformers.NewSharedInformerFactoryWithOptions(mco, resync,
			mcoinformers.WithTweakListOptions(byName), mcoinformers.WithTransform(controller.SlimMetadata)),
	}
}

// Cluster serves the agent's own Cluster.
func (f *ownFactory) Cluster() clusterinformers.Interface { return f.clusters.Cluster() }

// Start starts both factories' informers.
func (f *ownFactory) Start(stop <-chan struct{}) {
	f.SharedInformerFactory.Start(stop)
	f.clusters.Start(stop)
}

// StartWithContext starts both factories' informers.
func (f *ownFactory) StartWithContext(ctx context.Context) { f.Start(ctx.Done()) }

// Shutdown stops both factories.
func (f *ownFactory) Shutdown() {
	f.SharedInformerFactory.Shutdown()
	f.clusters.Shutdown()
}

// WaitForCacheSync waits for both factories' informers.
func (f *ownFactory) WaitForCacheSync(stop <-chan struct{}) map[reflect.Type]bool {
	out := f.SharedInformerFactory.WaitForCacheSync(stop)
	for t, ok := range f.clusters.WaitForCacheSync(stop) {
		out[t] = ok
	}
	return out
}
