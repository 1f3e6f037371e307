package etcd

import (
	"context"
	"strings"
	"testing"
	"time"

	clientv3 "go.etcd.io/etcd/client/v3"
	corev1 "k8s.io/api/core/v1"
	apiextensionsoptions "k8s.io/apiextensions-apiserver/pkg/cmd/server/options"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/apiserver/pkg/registry/generic"
	genericregistry "k8s.io/apiserver/pkg/registry/generic/registry"
	genericoptions "k8s.io/apiserver/pkg/server/options"
	serverstorage "k8s.io/apiserver/pkg/server/storage"
	"k8s.io/apiserver/pkg/storage"
	cacherstorage "k8s.io/apiserver/pkg/storage/cacher"
	etcdfeature "k8s.io/apiserver/pkg/storage/feature"
	"k8s.io/apiserver/pkg/storage/storagebackend"
	"k8s.io/apiserver/pkg/storage/storagebackend/factory"
	"k8s.io/client-go/kubernetes/scheme"
	"k8s.io/client-go/tools/cache"
)

// TestDecoratorKind tells Kubernetes' two decorators apart, as its own
// options factories hand them out, and leaves any other alone.
func TestDecoratorKind(t *testing.T) {
	other := func(*storagebackend.ConfigForResource, string, func(runtime.Object) (string, error),
		func() runtime.Object, func() runtime.Object, storage.AttrFunc, storage.IndexerFuncs, *cache.Indexers,
	) (storage.Interface, factory.DestroyFunc, error) {
		return nil, func() {}, nil
	}
	configMaps := corev1.Resource("configmaps")
	factoryWith := func(t *testing.T, watchCache bool, sizes ...string) generic.StorageDecorator {
		o := genericoptions.NewEtcdOptions(storagebackend.NewDefaultConfig("/registry", nil))
		o.EnableWatchCache, o.WatchCacheSizes = watchCache, sizes
		f := serverstorage.NewDefaultStorageFactory(o.StorageConfig, runtime.ContentTypeJSON, scheme.Codecs,
			serverstorage.NewDefaultResourceEncodingConfig(scheme.Scheme), serverstorage.NewResourceConfig(), nil)
		opts, err := (&genericoptions.StorageFactoryRestOptionsFactory{Options: *o, StorageFactory: f}).GetRESTOptions(configMaps, nil)
		if err != nil {
			t.Fatal(err)
		}
		return opts.Decorator
	}
	crds := func(t *testing.T) generic.StorageDecorator {
		o := genericoptions.NewEtcdOptions(storagebackend.NewDefaultConfig("/registry", nil))
		opts, err := apiextensionsoptions.NewCRDRESTOptionsGetter(*o, nil, nil).GetRESTOptions(schema.GroupResource{Group: "example.com", Resource: "widgets"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return opts.Decorator
	}
	for _, tc := range []struct {
		name string
		d    func(*testing.T) generic.StorageDecorator
		want decorator
	}{
		{"StorageWithCacher", func(*testing.T) generic.StorageDecorator { return genericregistry.StorageWithCacher() }, watchCached},
		{"the storage factory's, watch cache on", func(t *testing.T) generic.StorageDecorator { return factoryWith(t, true) }, watchCached},
		{"the storage factory's, this resource's off", func(t *testing.T) generic.StorageDecorator { return factoryWith(t, true, "configmaps#0") }, undecorated},
		{"the storage factory's, watch cache off", func(t *testing.T) generic.StorageDecorator { return factoryWith(t, false) }, undecorated},
		{"custom resources'", crds, watchCached},
		{"UndecoratedStorage", func(*testing.T) generic.StorageDecorator { return generic.UndecoratedStorage }, undecorated},
		{"another decorator", func(*testing.T) generic.StorageDecorator { return other }, otherDecorator},
		{"none", func(*testing.T) generic.StorageDecorator { return nil }, otherDecorator},
	} {
		d := tc.d(t)
		if got := decoratorKind(d); got != tc.want {
			t.Errorf("%s (%s): decoratorKind = %d, want %d", tc.name, funcName(d), got, tc.want)
		}
	}
}

// getterOf hands out fixed options.
type getterOf generic.RESTOptions

func (g getterOf) GetRESTOptions(schema.GroupResource, runtime.Object) (generic.RESTOptions, error) {
	return generic.RESTOptions(g), nil
}

// TestInProcessStorage builds ConfigMaps' storage, watch-cached and not,
// on a real member through the in-process client: what it writes is in
// etcd for a socket client to read, under the same key, and its watch
// sees it.
func TestInProcessStorage(t *testing.T) {
	e, err := Start(context.Background(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer e.Stop()
	socket, err := clientv3.New(clientv3.Config{Endpoints: []string{e.ClientURL()}, DialTimeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	defer socket.Close()

	json, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	codec := scheme.Codecs.CodecForVersions(json.Serializer, json.Serializer, corev1.SchemeGroupVersion, corev1.SchemeGroupVersion)
	// Kubernetes' storage learns that the member answers progress
	// requests, which consistent reads from the watch caches need.
	p := e.InProcess()
	if err := wait.PollUntilContextTimeout(context.Background(), 20*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		return etcdfeature.DefaultFeatureSupportChecker.Supports(storage.RequestWatchProgress), nil
	}); err != nil {
		t.Fatalf("RequestWatchProgress not known to be supported: %v", err)
	}
	config := storagebackend.NewDefaultConfig("/registry", codec)
	config.Transport.ServerList = []string{e.ClientURL()}
	for _, tc := range []struct {
		name      string
		decorator generic.StorageDecorator
	}{
		{"cached", genericregistry.StorageWithCacher()},
		{"undecorated", generic.UndecoratedStorage},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			opts, err := p.Getter(getterOf{StorageConfig: config.ForResource(corev1.Resource("configmaps")),
				Decorator: tc.decorator, ResourcePrefix: "configmaps"}).GetRESTOptions(corev1.Resource("configmaps"), nil)
			if err != nil {
				t.Fatal(err)
			}
			if decoratorKind(opts.Decorator) != otherDecorator {
				t.Fatalf("the decorator is still Kubernetes' own")
			}
			s, destroy, err := opts.Decorator(opts.StorageConfig, "/configmaps", func(obj runtime.Object) (string, error) { return storage.NamespaceKeyFunc("/configmaps/", obj) },
				func() runtime.Object { return &corev1.ConfigMap{} }, func() runtime.Object { return &corev1.ConfigMapList{} },
				storage.DefaultNamespaceScopedAttr, nil, nil)
			if err != nil {
				t.Fatal(err)
			}
			defer destroy()
			if _, cached := s.(*cacherstorage.CacheDelegator); cached != (tc.name == "cached") {
				t.Fatalf("storage %T, want a watch cache: %t", s, tc.name == "cached")
			}
			if err := s.ReadinessCheck(); err != nil {
				if err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
					return s.ReadinessCheck() == nil, nil
				}); err != nil {
					t.Fatalf("storage not ready: %v", err)
				}
			}
			ns := "ns-" + tc.name
			w, err := s.Watch(ctx, "/configmaps/"+ns, storage.ListOptions{ResourceVersion: "0", Recursive: true, Predicate: storage.Everything})
			if err != nil {
				t.Fatal(err)
			}
			defer w.Stop()

			name := "cm-" + tc.name
			key := "/configmaps/" + ns + "/" + name
			in := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns}, Data: map[string]string{"k": "v"}}
			out := &corev1.ConfigMap{}
			if err := s.Create(ctx, key, in, out, 0); err != nil {
				t.Fatal(err)
			}
			got, err := socket.Get(ctx, "/registry"+key)
			if err != nil {
				t.Fatal(err)
			}
			if len(got.Kvs) != 1 || !strings.Contains(string(got.Kvs[0].Value), `"k":"v"`) {
				t.Fatalf("etcd holds %v under /registry%s, want the ConfigMap", got.Kvs, key)
			}
			select {
			case ev := <-w.ResultChan():
				m, err := meta.Accessor(ev.Object)
				if err != nil || ev.Type != watch.Added || m.GetName() != name || m.GetResourceVersion() != out.ResourceVersion {
					t.Errorf("watch event %s %#v, want ADDED %s at %s", ev.Type, ev.Object, name, out.ResourceVersion)
				}
			case <-ctx.Done():
				t.Fatal("no watch event")
			}
		})
	}
}
