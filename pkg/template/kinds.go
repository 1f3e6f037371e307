package template

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/tools/cache"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/protowatch"
)

// Resources are the template kinds with their informers. Kinds come and go
// at run time with CustomResourceDefinitions: a controller hears of every
// kind, present and future, through OnKind.
type Resources struct {
	client dynamic.Interface
	// proto, when set, lists and watches the built-in kinds as protobuf
	// (their templates are still cached as unstructured objects).
	proto  *protowatch.Clients
	resync time.Duration

	mu       sync.RWMutex
	kinds    map[schema.GroupVersionKind]*kind
	removed  map[schema.GroupKind]bool
	watchers []func(Resource, cache.SharedIndexInformer) error
	ctx      context.Context // set by Start: kinds added later start at once
	initial  []cache.InformerSynced

	// statusWrites tells mco's own status writes apart from changes that
	// matter to propagation.
	statusWrites *statusWrites
}

// kind is one template kind and its informer, which runs until stop.
type kind struct {
	Resource
	informer cache.SharedIndexInformer
	stop     context.CancelFunc
}

// New returns template kinds kept with informers from client.
func New(client dynamic.Interface, resync time.Duration, kinds ...Resource) *Resources {
	return newResources(client, nil, resync, kinds...)
}

func newResources(client dynamic.Interface, proto *protowatch.Clients, resync time.Duration, kinds ...Resource) *Resources {
	r := &Resources{client: client, proto: proto, resync: resync, kinds: map[schema.GroupVersionKind]*kind{},
		removed: map[schema.GroupKind]bool{}, statusWrites: newStatusWrites()}
	for _, x := range kinds {
		r.kinds[x.GVK] = r.newKind(x)
	}
	return r
}

// Discover lists the template kinds mco-apiserver serves, in their
// preferred versions. A group whose discovery fails is left out (and
// logged) rather than failing every kind. Built-in kinds are listed and
// watched through proto when it is set, the others through client.
func Discover(ctx context.Context, d discovery.DiscoveryInterface, client dynamic.Interface, proto *protowatch.Clients, resync time.Duration) (*Resources, error) {
	lists, err := d.ServerPreferredResources()
	if err != nil && len(lists) == 0 {
		return nil, fmt.Errorf("discover served resources: %w", err)
	}
	if err != nil {
		klog.FromContext(ctx).Error(err, "Some groups could not be discovered; their kinds are not templates until they are")
	}
	var kinds []Resource
	for _, l := range lists {
		gv, err := schema.ParseGroupVersion(l.GroupVersion)
		if err != nil {
			continue
		}
		for _, res := range l.APIResources {
			if isTemplate(schema.GroupResource{Group: gv.Group, Resource: res.Name}, res.Verbs) {
				kinds = append(kinds, Resource{GVR: gv.WithResource(res.Name), GVK: gv.WithKind(res.Kind), Namespaced: res.Namespaced})
			}
		}
	}
	return newResources(client, proto, resync, kinds...), nil
}

func (r *Resources) newKind(x Resource) *kind {
	inf := r.informer(x)
	// A deleted template's status writes are forgotten: Jobs and
	// recreated workloads would otherwise grow the record for ever.
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{DeleteFunc: func(obj any) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		if o, ok := obj.(metav1.Object); ok {
			r.statusWrites.forget(o.GetUID())
		}
	}})
	return &kind{Resource: x, informer: inf}
}

// informer returns a new informer of x's templates, caching them as
// unstructured objects without managedFields: a protobuf one for a
// built-in kind when r has proto clients, a dynamic (JSON) one otherwise.
func (r *Resources) informer(x Resource) cache.SharedIndexInformer {
	indexers := cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc}
	if r.proto != nil && protowatch.Known(x.GVK) {
		inf, err := r.proto.Informer(protowatch.Resource{GVK: x.GVK, Resource: x.GVR.Resource}, r.resync, indexers, nil, nil)
		if err == nil {
			return inf
		}
		klog.Background().Error(err, "Templates of this kind are watched as JSON", "kind", x.GVK)
	}
	inf := dynamicinformer.NewFilteredDynamicInformer(r.client, x.GVR, metav1.NamespaceAll, r.resync, indexers, nil).Informer()
	_ = inf.SetTransform(controller.SlimMetadata) // fails only once started; this one is new
	return inf
}

// Kinds lists the template kinds served now, ordered by group and kind.
func (r *Resources) Kinds() []Resource {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Resource, 0, len(r.kinds))
	for _, k := range r.kinds {
		out = append(out, k.Resource)
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].GVK.Group != out[j].GVK.Group {
			return out[i].GVK.Group < out[j].GVK.Group
		}
		return out[i].GVK.Kind < out[j].GVK.Kind
	})
	return out
}

// ByGVK returns the template kind of a GroupVersionKind.
func (r *Resources) ByGVK(gvk schema.GroupVersionKind) (Resource, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	k, ok := r.kinds[gvk]
	if !ok {
		return Resource{}, false
	}
	return k.Resource, true
}

// ByGroupKind returns the template kind of a group and kind, at the
// version mco follows (a CRD's preferred version).
func (r *Resources) ByGroupKind(gk schema.GroupKind) (Resource, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	for gvk, k := range r.kinds {
		if gvk.GroupKind() == gk {
			return k.Resource, true
		}
	}
	return Resource{}, false
}

// Lister returns the cache of a template kind; false once the kind is gone.
func (r *Resources) Lister(x Resource) (cache.GenericLister, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	k, ok := r.kinds[x.GVK]
	if !ok {
		return nil, false
	}
	return cache.NewGenericLister(k.informer.GetIndexer(), x.GVR.GroupResource()), true
}

// OnKind calls fn with every template kind served now and, from then on,
// with each kind that appears (a CustomResourceDefinition established),
// before its informer starts: fn adds the controller's event handlers.
func (r *Resources) OnKind(fn func(Resource, cache.SharedIndexInformer) error) error {
	r.mu.Lock()
	defer r.mu.Unlock()
	for _, k := range r.sortedLocked() {
		if err := fn(k.Resource, k.informer); err != nil {
			return fmt.Errorf("template kind %s: %w", k.GVK, err)
		}
	}
	r.watchers = append(r.watchers, fn)
	return nil
}

func (r *Resources) sortedLocked() []*kind {
	out := make([]*kind, 0, len(r.kinds))
	for _, k := range r.kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].GVK.String() < out[j].GVK.String() })
	return out
}

// Start runs the informers of every kind until ctx ends; kinds added later
// start when added.
func (r *Resources) Start(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.ctx = ctx
	for _, k := range r.kinds {
		r.startLocked(k)
		r.initial = append(r.initial, k.informer.HasSynced)
	}
}

func (r *Resources) startLocked(k *kind) {
	ctx, cancel := context.WithCancel(r.ctx)
	k.stop = cancel
	go k.informer.RunWithContext(ctx)
}

// HasSynced tells whether the informers of the kinds served at Start have
// listed their objects.
func (r *Resources) HasSynced() bool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	if r.ctx == nil {
		return false
	}
	for _, synced := range r.initial {
		if !synced() {
			return false
		}
	}
	return true
}

// WaitForCacheSync waits until HasSynced or ctx ends.
func (r *Resources) WaitForCacheSync(ctx context.Context) bool {
	return cache.WaitForCacheSync(ctx.Done(), r.HasSynced)
}

// Put serves x as a template kind: a new kind gets an informer and every
// watcher's handlers; a kind served before in another version moves to
// x's. It reports whether anything changed.
func (r *Resources) Put(x Resource) (bool, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if old, ok := r.kinds[x.GVK]; ok && old.Resource == x {
		return false, nil
	}
	r.removeLocked(x.GVK.GroupKind())
	k := r.newKind(x)
	for _, fn := range r.watchers {
		if err := fn(x, k.informer); err != nil {
			return false, fmt.Errorf("template kind %s: %w", x.GVK, err)
		}
	}
	r.kinds[x.GVK] = k
	delete(r.removed, x.GVK.GroupKind())
	if r.ctx != nil {
		r.startLocked(k)
	}
	return true, nil
}

// Remove stops serving a kind (its CustomResourceDefinition is gone): its
// informer stops, and Get answers NotFound for its templates from then on.
func (r *Resources) Remove(gk schema.GroupKind) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.removeLocked(gk)
}

func (r *Resources) removeLocked(gk schema.GroupKind) bool {
	found := false
	for gvk, k := range r.kinds {
		if gvk.GroupKind() != gk {
			continue
		}
		if k.stop != nil {
			k.stop()
		}
		delete(r.kinds, gvk)
		r.removed[gk] = true
		found = true
	}
	return found
}

// unknown is the error for a template of a kind not served: NotFound when
// the kind was served and has gone (its templates went with it).
func (r *Resources) unknown(k Key) error {
	r.mu.RLock()
	gone := r.removed[k.GVK.GroupKind()]
	r.mu.RUnlock()
	if gone {
		return apierrors.NewNotFound(schema.GroupResource{Group: k.GVK.Group, Resource: k.GVK.Kind}, k.Name)
	}
	return fmt.Errorf("%s is not a template kind mco serves", k.GVK)
}

// Get returns a template from the cache (shared: do not modify).
func (r *Resources) Get(k Key) (*unstructured.Unstructured, error) {
	x, ok := r.ByGVK(k.GVK)
	if !ok {
		return nil, r.unknown(k)
	}
	lister, ok := r.Lister(x)
	if !ok {
		return nil, r.unknown(k)
	}
	var (
		obj any
		err error
	)
	if x.Namespaced {
		obj, err = lister.ByNamespace(k.Namespace).Get(k.Name)
	} else {
		obj, err = lister.Get(k.Name)
	}
	if err != nil {
		return nil, err
	}
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return nil, fmt.Errorf("unexpected %T in the cache of %s", obj, x.GVR)
	}
	return u, nil
}
