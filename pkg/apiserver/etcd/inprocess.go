package etcd

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	goruntime "runtime"
	"strings"
	"sync"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	"go.etcd.io/etcd/client/v3/kubernetes"
	"go.etcd.io/etcd/server/v3/etcdserver"
	"go.etcd.io/etcd/server/v3/etcdserver/api/v3client"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	genericfeatures "k8s.io/apiserver/pkg/features"
	"k8s.io/apiserver/pkg/registry/generic"
	"k8s.io/apiserver/pkg/storage"
	cacherstorage "k8s.io/apiserver/pkg/storage/cacher"
	"k8s.io/apiserver/pkg/storage/etcd3"
	etcdfeature "k8s.io/apiserver/pkg/storage/feature"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/apiserver/pkg/storage/value/encrypt/identity"
	utilfeature "k8s.io/apiserver/pkg/util/feature"
	"k8s.io/client-go/tools/cache"
	"k8s.io/utils/clock"
)

// InProcess builds the apiserver's storage on the embedded member with
// direct calls into it (etcd's in-process client), rather than gRPC over a
// loopback socket: no request or response is marshalled, framed, written
// and read back on either side. The storage is otherwise Kubernetes' own
// etcd3 store, with its watch cache where the options ask for one, its
// latency tracking and its compactor. Readiness checks and external tools
// still reach the member at its client URL.
//
// Each resource's storage has a client of its own, as Kubernetes' storage
// factory gives each one its own connection: the watches of one client
// share one stream, and etcd answers a stream's progress request only when
// every watch on it is caught up, so with one client for all, a single
// lagging watch would keep every other watch cache from learning that it
// is current (consistent reads and bookmarks waiting on it).
type InProcess struct {
	server   *etcdserver.EtcdServer
	endpoint string
	ctx      context.Context
	cancel   context.CancelFunc

	mu      sync.Mutex
	clients map[*clientv3.Client]bool // open
	stopped bool

	once      sync.Once
	compactor interface {
		etcd3.Compactor
		Stop()
	}
}

// InProcess returns the in-process storage builder of the member; Stop
// ends what it started.
func (e *Embedded) InProcess() *InProcess {
	e.inProcessOnce.Do(func() {
		p := &InProcess{server: e.etcd.Server, endpoint: e.clientURL, clients: map[*clientv3.Client]bool{}}
		p.ctx, p.cancel = context.WithCancel(context.Background())
		p.checkFeatures()
		e.inProcess = p
	})
	return e.inProcess
}

// checkFeatures has Kubernetes' storage learn what the member supports
// (RequestWatchProgress, which consistent reads from the watch cache and
// watches that start with the current objects need). Its checker asks
// each endpoint of a client for etcd's version; an in-process client has
// no endpoint, so it is asked through one named by the member's URL.
func (p *InProcess) checkFeatures() {
	c, _, err := p.newClient()
	if err != nil {
		return
	}
	etcdfeature.DefaultFeatureSupportChecker.CheckClient(p.ctx, named{Client: c.Client, endpoint: p.endpoint}, storage.RequestWatchProgress)
}

// named is an in-process client that gives its member's URL as its
// endpoint; Status answers for the member whatever endpoint it is given.
type named struct {
	*clientv3.Client
	endpoint string
}

func (n named) Endpoints() []string { return []string{n.endpoint} }

// newClient returns a new in-process client and the function that closes
// it.
func (p *InProcess) newClient() (*kubernetes.Client, func(), error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stopped {
		return nil, nil, errors.New("the embedded etcd is stopping")
	}
	c := v3client.New(p.server)
	// Each request's time in etcd counts in its latency, as with the
	// socket client.
	c.KV = etcd3.NewETCDLatencyTracker(c.KV)
	p.clients[c] = true
	kc := &kubernetes.Client{Client: c}
	kc.Kubernetes = kc
	return kc, func() { p.close(c) }, nil
}

// close closes c unless it is closed already.
func (p *InProcess) close(c *clientv3.Client) {
	p.mu.Lock()
	open := p.clients[c]
	delete(p.clients, c)
	p.mu.Unlock()
	if open {
		_ = c.Close()
	}
}

// stop ends the compactor and closes every client still open.
func (p *InProcess) stop() {
	p.once.Do(func() {}) // no compactor starts after this
	p.cancel()
	if p.compactor != nil {
		p.compactor.Stop()
	}
	p.mu.Lock()
	p.stopped = true
	open := p.clients
	p.clients = map[*clientv3.Client]bool{}
	p.mu.Unlock()
	for c := range open {
		_ = c.Close()
	}
}

// Getter wraps a RESTOptionsGetter so that the storage it configures on
// the member is built in process: a decorator that builds Kubernetes'
// watch-cached storage, or its undecorated one, is replaced by the same
// built on the in-process client. Any other decorator (a storage of
// nothing, a test's) is left as it is.
func (p *InProcess) Getter(next generic.RESTOptionsGetter) generic.RESTOptionsGetter {
	return inProcessGetter{next: next, p: p}
}

type inProcessGetter struct {
	next generic.RESTOptionsGetter
	p    *InProcess
}

func (g inProcessGetter) GetRESTOptions(resource schema.GroupResource, example runtime.Object) (generic.RESTOptions, error) {
	opts, err := g.next.GetRESTOptions(resource, example)
	if err != nil {
		return opts, err
	}
	switch decoratorKind(opts.Decorator) {
	case watchCached:
		opts.Decorator = g.p.cached
	case undecorated:
		opts.Decorator = g.p.undecorated
	}
	return opts, nil
}

type decorator int

const (
	otherDecorator decorator = iota
	watchCached
	undecorated
)

// Kubernetes' options factories hand out one of two decorators:
// UndecoratedStorage, or a function literal of StorageWithCacher, which the
// compiler copies into every caller it inlines StorageWithCacher into
// (registry.StorageWithCacher.func1,
// options.(*StorageFactoryRestOptionsFactory).GetRESTOptions.StorageWithCacher.func1,
// a test's f.func4.StorageWithCacher.1): its name tells it. A decorator
// told wrongly is left as it is, and works as before.
var undecoratedCode = reflect.ValueOf(generic.UndecoratedStorage).Pointer()

// decoratorKind tells which of Kubernetes' decorators d is.
func decoratorKind(d generic.StorageDecorator) decorator {
	if d == nil {
		return otherDecorator
	}
	if reflect.ValueOf(d).Pointer() == undecoratedCode {
		return undecorated
	}
	if strings.Contains(funcName(d), ".StorageWithCacher.") {
		return watchCached
	}
	return otherDecorator
}

// funcName is the name of d's code.
func funcName(d generic.StorageDecorator) string {
	if f := goruntime.FuncForPC(reflect.ValueOf(d).Pointer()); f != nil {
		return f.Name()
	}
	return ""
}

// undecorated builds a resource's storage without watch cache.
func (p *InProcess) undecorated(config *storagebackend.ConfigForResource, resourcePrefix string,
	_ func(runtime.Object) (string, error), newFunc, newListFunc func() runtime.Object,
	_ storage.AttrFunc, _ storage.IndexerFuncs, _ *cache.Indexers,
) (storage.Interface, factory.DestroyFunc, error) {
	return p.raw(config, newFunc, newListFunc, resourcePrefix)
}

// cached builds a resource's storage behind its watch cache, configured as
// Kubernetes configures it.
func (p *InProcess) cached(config *storagebackend.ConfigForResource, resourcePrefix string,
	keyFunc func(runtime.Object) (string, error), newFunc, newListFunc func() runtime.Object,
	getAttrs storage.AttrFunc, triggers storage.IndexerFuncs, indexers *cache.Indexers,
) (storage.Interface, factory.DestroyFunc, error) {
	// What the watch cache keeps is decoded with its metadata interned.
	interning := *config
	interning.Codec = internCodec{config.Codec}
	s, destroy, err := p.raw(&interning, newFunc, newListFunc, resourcePrefix)
	if err != nil {
		return nil, nil, err
	}
	cacher, err := cacherstorage.NewCacherFromConfig(cacherstorage.Config{
		Storage:             s,
		Versioner:           storage.APIObjectVersioner{},
		GroupResource:       config.GroupResource,
		EventsHistoryWindow: config.EventsHistoryWindow,
		ResourcePrefix:      resourcePrefix,
		KeyFunc:             keyFunc,
		NewFunc:             newFunc,
		NewListFunc:         newListFunc,
		GetAttrsFunc:        getAttrs,
		IndexerFuncs:        triggers,
		Indexers:            indexers,
		Codec:               config.Codec,
	})
	if err != nil {
		destroy()
		return nil, nil, err
	}
	delegator := cacherstorage.NewCacheDelegator(cacher, s)
	var once sync.Once
	return delegator, func() {
		once.Do(func() {
			delegator.Stop()
			cacher.Stop()
			destroy()
		})
	}, nil
}

// raw builds Kubernetes' etcd3 store of one resource on an in-process
// client of its own, as its storage factory builds it on a socket client.
func (p *InProcess) raw(config *storagebackend.ConfigForResource, newFunc, newListFunc func() runtime.Object, resourcePrefix string) (storage.Interface, factory.DestroyFunc, error) {
	compactor, err := p.compactorFor(config.CompactionInterval)
	if err != nil {
		return nil, nil, err
	}
	client, closeClient, err := p.newClient()
	if err != nil {
		return nil, nil, err
	}
	transformer := config.Transformer
	if transformer == nil {
		transformer = identity.NewEncryptCheckTransformer()
	}
	versioner := storage.APIObjectVersioner{}
	decoder := etcd3.NewDefaultDecoder(config.Codec, versioner)
	unsafeDeletion := utilfeature.DefaultFeatureGate.Enabled(genericfeatures.AllowUnsafeMalformedObjectDeletion)
	if unsafeDeletion {
		transformer = etcd3.WithCorruptObjErrorHandlingTransformer(transformer)
		decoder = etcd3.WithCorruptObjErrorHandlingDecoder(decoder)
	}
	store, err := etcd3.New(client, compactor, config.Codec, newFunc, newListFunc,
		config.Prefix, resourcePrefix, config.GroupResource, transformer, config.LeaseManagerConfig, decoder, versioner)
	if err != nil {
		closeClient()
		return nil, nil, err
	}
	var s storage.Interface = store
	if unsafeDeletion {
		s = etcd3.NewStoreWithUnsafeCorruptObjectDeletion(s, config.GroupResource)
	}
	var once sync.Once
	return s, func() {
		once.Do(func() {
			store.Close()
			closeClient()
		})
	}, nil
}

// compactorFor starts, the first time, the one compactor of the member, on
// a client of its own (none when interval is 0, as the storage factory
// does).
func (p *InProcess) compactorFor(interval time.Duration) (etcd3.Compactor, error) {
	var err error
	p.once.Do(func() {
		if interval == 0 {
			return
		}
		var client *kubernetes.Client
		if client, _, err = p.newClient(); err == nil {
			p.compactor = etcd3.NewCompactor(client.Client, interval, clock.RealClock{}, nil)
		}
	})
	if err != nil {
		return nil, fmt.Errorf("start the compactor: %w", err)
	}
	if p.compactor == nil {
		return nil, nil
	}
	return p.compactor, nil
}
