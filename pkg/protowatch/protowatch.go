// Package protowatch keeps caches of objects as unstructured maps, the way
// dynamic informers keep them, while listing and watching Kubernetes'
// built-in kinds as protobuf. Dynamic clients speak JSON only, and decoding
// JSON into maps was most of mco-controller-manager's decoding CPU (the
// members' applied objects and the templates); a built-in kind's protobuf
// decodes into its Go type at a fraction of that, and
// runtime.DefaultUnstructuredConverter turns it into the same map JSON
// would have given (TestSameAsJSON). Kinds client-go does not know (custom
// resources, aggregated APIs) are for dynamic informers still: Known tells.
package protowatch

import (
	"context"
	"fmt"
	"net/http"
	"reflect"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/kubeconfig"
)

// Known tells whether gvk is a kind client-go's scheme holds, with its
// list kind: a built-in kind this package can watch as protobuf.
func Known(gvk schema.GroupVersionKind) bool {
	return scheme.Scheme.Recognizes(gvk) && scheme.Scheme.Recognizes(listKind(gvk))
}

func listKind(gvk schema.GroupVersionKind) schema.GroupVersionKind {
	return gvk.GroupVersion().WithKind(gvk.Kind + "List")
}

// Clients hands out protobuf REST clients of one server, one per group
// version, sharing one HTTP client (its connections).
type Clients struct {
	cfg  *rest.Config
	http *http.Client

	mu      sync.Mutex
	clients map[schema.GroupVersion]rest.Interface
}

// NewClients returns the clients of the server cfg reaches.
func NewClients(cfg *rest.Config) (*Clients, error) {
	c := kubeconfig.Protobuf(cfg)
	hc, err := rest.HTTPClientFor(c)
	if err != nil {
		return nil, fmt.Errorf("protobuf HTTP client: %w", err)
	}
	return &Clients{cfg: c, http: hc, clients: map[schema.GroupVersion]rest.Interface{}}, nil
}

func (c *Clients) forGroupVersion(gv schema.GroupVersion) (rest.Interface, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if rc, ok := c.clients[gv]; ok {
		return rc, nil
	}
	cfg := rest.CopyConfig(c.cfg)
	cfg.GroupVersion = &gv
	cfg.APIPath = "/apis"
	if gv.Group == "" {
		cfg.APIPath = "/api"
	}
	cfg.NegotiatedSerializer = scheme.Codecs.WithoutConversion()
	rc, err := rest.RESTClientForConfigAndClient(cfg, c.http)
	if err != nil {
		return nil, fmt.Errorf("protobuf client of %s: %w", gv, err)
	}
	c.clients[gv] = rc
	return rc, nil
}

// Resource names what an informer lists and watches.
type Resource struct {
	GVK      schema.GroupVersionKind
	Resource string // plural, as in the URL
	// Namespace limits the informer to one namespace; "" is every one.
	Namespace string
}

// ListWatch lists and watches r as protobuf; objects come as their Go
// types. tweak, when set, adjusts every list and watch request.
func (c *Clients) ListWatch(r Resource, tweak func(*metav1.ListOptions)) (cache.ListerWatcher, error) {
	if !Known(r.GVK) {
		return nil, fmt.Errorf("%s is not a built-in kind", r.GVK)
	}
	rc, err := c.forGroupVersion(r.GVK.GroupVersion())
	if err != nil {
		return nil, err
	}
	request := func(opts *metav1.ListOptions) *rest.Request {
		if tweak != nil {
			tweak(opts)
		}
		return rc.Get().NamespaceIfScoped(r.Namespace, r.Namespace != "").Resource(r.Resource).
			VersionedParams(opts, scheme.ParameterCodec)
	}
	return &cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
			list, err := scheme.Scheme.New(listKind(r.GVK))
			if err != nil {
				return nil, err
			}
			if err := request(&opts).Do(ctx).Into(list); err != nil {
				return nil, err
			}
			return list, nil
		},
		WatchFuncWithContext: func(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
			opts.Watch = true
			return request(&opts).Watch(ctx)
		},
	}, nil
}

// Informer returns an informer of r that lists and watches as protobuf
// and caches what next makes of each object as an unstructured one
// (next may be nil: the unstructured object is cached). Its handlers,
// indexers and listers see what is cached, never the Go types.
func (c *Clients) Informer(r Resource, resync time.Duration, indexers cache.Indexers, tweak func(*metav1.ListOptions), next cache.TransformFunc) (cache.SharedIndexInformer, error) {
	return c.TypedInformer(r, resync, indexers, tweak, Unstructured(r.GVK, next))
}

// TypedInformer returns an informer of r that lists and watches as
// protobuf and caches what transform makes of each object, which it is
// handed as its Go type. transform must return what it made unchanged
// (client-go transforms an initial list twice; see OfType).
func (c *Clients) TypedInformer(r Resource, resync time.Duration, indexers cache.Indexers, tweak func(*metav1.ListOptions), transform cache.TransformFunc) (cache.SharedIndexInformer, error) {
	lw, err := c.ListWatch(r, tweak)
	if err != nil {
		return nil, err
	}
	example, err := scheme.Scheme.New(r.GVK)
	if err != nil {
		return nil, err
	}
	inf := cache.NewSharedIndexInformer(lw, example, resync, indexers)
	if err := inf.SetTransform(transform); err != nil {
		return nil, err
	}
	return inf, nil
}

// OfType returns an informer transform that applies fn to objects of
// kind gvk's Go type and returns anything else as it is: client-go may
// hand a transform what it already transformed (an initial list goes
// through a temporary store and then the informer's queue, both
// transforming), so the result must pass through unchanged whatever fn
// makes. Tombstones pass through too.
func OfType(gvk schema.GroupVersionKind, fn func(runtime.Object) (any, error)) cache.TransformFunc {
	var typed reflect.Type
	if example, err := scheme.Scheme.New(gvk); err == nil {
		typed = reflect.TypeOf(example)
	}
	return func(obj any) (any, error) {
		o, ok := obj.(runtime.Object)
		if !ok || typed == nil || reflect.TypeOf(obj) != typed {
			return obj, nil
		}
		return fn(o)
	}
}

// Unstructured is an informer transform that turns an object of kind
// gvk's Go type into the unstructured object JSON would have given, then
// applies next (when set); anything else passes through (see OfType).
func Unstructured(gvk schema.GroupVersionKind, next cache.TransformFunc) cache.TransformFunc {
	return OfType(gvk, func(o runtime.Object) (any, error) {
		u, err := ToUnstructured(o, gvk)
		if err != nil {
			return nil, err
		}
		if next == nil {
			return u, nil
		}
		return next(u)
	})
}

// ToUnstructured converts obj, of a Go type, into an unstructured object
// of kind gvk. Its managedFields are left out: no cache of mco reads them.
// The converter sizes each map for every field of its struct, most of them
// empty: the result is copied into maps sized to what they hold (a cached
// Deployment 13.6 KB -> 7.2 KB; its JSON decoded takes 9.0;
// BenchmarkToUnstructured).
func ToUnstructured(obj runtime.Object, gvk schema.GroupVersionKind) (*unstructured.Unstructured, error) {
	if m, ok := obj.(metav1.ObjectMetaAccessor); ok {
		m.GetObjectMeta().SetManagedFields(nil)
	}
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, fmt.Errorf("convert %s: %w", gvk.Kind, err)
	}
	u := &unstructured.Unstructured{Object: runtime.DeepCopyJSON(content)}
	u.SetGroupVersionKind(gvk)
	return u, nil
}
