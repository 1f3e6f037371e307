package member

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/protowatch"
)

// objectsResync is how often the informers of applied objects hand their
// handlers every cached object again.
const objectsResync = 10 * time.Minute

// managed narrows the informers of applied objects to what mco applied.
func managed(o *metav1.ListOptions) { o.LabelSelector = workv1alpha1.WorkPermanentIDLabel }

// protoObjects are the informers of applied objects of built-in kinds,
// which list and watch the member as protobuf (a dynamic informer would
// decode JSON) and cache a Copy encoded from the Go type (slimAppliedTyped).
type protoObjects struct {
	clients *protowatch.Clients

	mu sync.Mutex
	// byGVR holds each resource's informer, nil for a resource that is
	// not of a built-in kind (watched as JSON): asked once per resource.
	byGVR   map[schema.GroupVersionResource]cache.SharedIndexInformer
	started map[schema.GroupVersionResource]bool
}

func newProtoObjects(clients *protowatch.Clients) *protoObjects {
	return &protoObjects{clients: clients, byGVR: map[schema.GroupVersionResource]cache.SharedIndexInformer{},
		started: map[schema.GroupVersionResource]bool{}}
}

// informer returns the informer of gvr's objects, whose kind kindFor
// tells; nil when that is not a built-in kind (or it cannot be told, or
// the informer cannot be built), for the caller to use a dynamic one.
func (p *protoObjects) informer(gvr schema.GroupVersionResource, kindFor func(schema.GroupVersionResource) (schema.GroupVersionKind, error)) cache.SharedIndexInformer {
	p.mu.Lock()
	defer p.mu.Unlock()
	if inf, ok := p.byGVR[gvr]; ok {
		return inf
	}
	// A kind that cannot be told now (the member does not serve it yet)
	// is watched as JSON for good: its handlers are on that informer.
	var inf cache.SharedIndexInformer
	if gvk, err := kindFor(gvr); err == nil && protowatch.Known(gvk) {
		inf, err = p.clients.TypedInformer(protowatch.Resource{GVK: gvk, Resource: gvr.Resource}, objectsResync,
			cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}, managed, protowatch.OfType(gvk, slimAppliedTyped(gvk)))
		if err != nil {
			klog.Background().Error(err, "Applied objects of this kind are watched as JSON", "resource", gvr)
			inf = nil
		}
	}
	p.byGVR[gvr] = inf
	return inf
}

// start runs the informers asked for since the last call until ctx ends.
func (p *protoObjects) start(ctx context.Context) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for gvr, inf := range p.byGVR {
		if inf != nil && !p.started[gvr] {
			p.started[gvr] = true
			go inf.RunWithContext(ctx)
		}
	}
}
