package member

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/dynamic/dynamicinformer"
	"k8s.io/client-go/informers"
	coreinformers "k8s.io/client-go/informers/core/v1"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/cache"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	clusterinformers "github.com/mco-org/mco/pkg/generated/informers/externalversions/cluster/v1alpha1"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/protowatch"
	"github.com/mco-org/mco/pkg/slimwire"
)

// Clients reach one member cluster. They are shared: do not modify.
type Clients struct {
	Cluster string
	// Config reaches the member as the other clients do, for APIs they
	// do not cover (the members' metrics APIs).
	Config    *rest.Config
	Kube      kubernetes.Interface
	Dynamic   dynamic.Interface
	Discovery discovery.CachedDiscoveryInterface
	Mapper    meta.ResettableRESTMapper
	// objects watches, in the member, only what mco applied (objects
	// carrying the work.karmada.io/permanent-id label), per resource.
	objects dynamicinformer.DynamicSharedInformerFactory
	// proto does the same for built-in kinds, as protobuf.
	proto *protoObjects
	// Cluster-wide typed informers (nodes, pods) for the status
	// controller; Pods and Nodes are cached with only what its summaries
	// read (slimTyped).
	Typed informers.SharedInformerFactory

	fingerprint string
	ctx         context.Context
	stop        context.CancelFunc
}

// ObjectInformer returns the informer of one resource's objects that mco
// applied to the member; it caches them without metadata.managedFields
// and, for the kinds Slimmed names, without the fields mco's own rules do
// not read. Start starts it.
func (c *Clients) ObjectInformer(gvr schema.GroupVersionResource) cache.SharedIndexInformer {
	if inf := c.proto.informer(gvr, c.Mapper.KindFor); inf != nil {
		return inf
	}
	inf := c.objects.ForResource(gvr).Informer()
	// Fails only once the informer has started, which means an earlier
	// call has set the transform already.
	_ = inf.SetTransform(slimApplied)
	return inf
}

// Context ends when these clients are replaced or forgotten; informers
// started from ObjectInformer and Typed run until then.
func (c *Clients) Context() context.Context { return c.ctx }

// Start starts informers requested since the last call.
func (c *Clients) Start() {
	c.objects.Start(c.ctx.Done())
	c.proto.start(c.ctx)
	c.Typed.Start(c.ctx.Done())
}

// Source hands out the clients of the member clusters a process reaches:
// mco-controller-manager reaches every Push cluster (Manager), mco-agent
// only its own (Local). The controllers that act in members take a Source,
// so the same code serves both.
type Source interface {
	// Reaches tells whether this process acts in the cluster: false for a
	// cluster some other process (an agent) serves.
	Reaches(cluster string) bool
	// Get returns the clients of a cluster.
	Get(cluster string) (*Clients, error)
	// Forget drops a cluster's clients and stops their informers.
	Forget(cluster string)
	// OnChange registers fn to be told when a cluster's clients are
	// replaced or forgotten.
	OnChange(fn func(cluster string))
	// HasSynced tells whether what Get reads is cached.
	HasSynced() bool
}

// Manager hands out cached clients per cluster, rebuilt when the Cluster's
// endpoint or its credentials change.
type Manager struct {
	clusters clusterlisters.ClusterLister
	secrets  func(namespace string) corelisters.SecretNamespaceLister
	synced   []cache.InformerSynced
	qps      float32
	burst    int
	parent   context.Context

	mu      sync.Mutex
	clients map[string]*Clients
	// changed is told the name of a cluster whose clients were replaced.
	changed []func(cluster string)
}

var _ Source = &Manager{}

// NewManager returns a manager reading Clusters and Secrets from their
// informers. ctx bounds every member informer.
func NewManager(ctx context.Context, clusters clusterinformers.ClusterInformer, secrets coreinformers.SecretInformer, qps float32, burst int) *Manager {
	return &Manager{
		clusters: clusters.Lister(), secrets: secrets.Lister().Secrets, qps: qps, burst: burst, parent: ctx,
		synced:  []cache.InformerSynced{clusters.Informer().HasSynced, secrets.Informer().HasSynced},
		clients: map[string]*Clients{},
	}
}

// HasSynced tells whether the Clusters and Secrets are cached.
func (m *Manager) HasSynced() bool {
	for _, s := range m.synced {
		if !s() {
			return false
		}
	}
	return true
}

// Reaches is true for a Push cluster, and for one not (yet) known, whose
// Get then says why it cannot be reached; a Pull cluster is its agent's.
func (m *Manager) Reaches(name string) bool {
	c, err := m.clusters.Get(name)
	return err != nil || c.Spec.SyncMode != clusterv1alpha1.Pull
}

// OnChange registers fn to be told when a cluster's clients are replaced
// or forgotten (informers of the old clients have stopped).
func (m *Manager) OnChange(fn func(cluster string)) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.changed = append(m.changed, fn)
}

// Get returns the clients of a cluster.
func (m *Manager) Get(name string) (*Clients, error) {
	c, err := m.clusters.Get(name)
	if err != nil {
		return nil, fmt.Errorf("get cluster %s: %w", name, err)
	}
	if c.Spec.SyncMode != clusterv1alpha1.Push {
		return nil, fmt.Errorf("cluster %s is in %s mode; only Push clusters are reached from mco", name, c.Spec.SyncMode)
	}
	if c.Spec.SecretRef == nil {
		return nil, fmt.Errorf("cluster %s has no spec.secretRef", name)
	}
	secret, err := m.secrets(c.Spec.SecretRef.Namespace).Get(c.Spec.SecretRef.Name)
	if err != nil {
		return nil, fmt.Errorf("credentials of cluster %s (secret %s/%s): %w", name, c.Spec.SecretRef.Namespace, c.Spec.SecretRef.Name, err)
	}
	fp := fingerprint(c, secret)

	m.mu.Lock()
	if cached, ok := m.clients[name]; ok && cached.fingerprint == fp {
		m.mu.Unlock()
		return cached, nil
	}
	m.mu.Unlock()

	built, err := m.build(c, secret, fp)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	if cached, ok := m.clients[name]; ok {
		if cached.fingerprint == fp {
			m.mu.Unlock()
			built.stop()
			return cached, nil
		}
		cached.stop()
	}
	replaced := m.clients[name] != nil
	m.clients[name] = built
	listeners := append([]func(string){}, m.changed...)
	m.mu.Unlock()
	if replaced {
		for _, fn := range listeners {
			fn(name)
		}
	}
	return built, nil
}

// Forget drops a cluster's clients and stops their informers.
func (m *Manager) Forget(name string) {
	m.mu.Lock()
	c, ok := m.clients[name]
	delete(m.clients, name)
	listeners := append([]func(string){}, m.changed...)
	m.mu.Unlock()
	if ok {
		c.stop()
		for _, fn := range listeners {
			fn(name)
		}
	}
}

func (m *Manager) build(c *clusterv1alpha1.Cluster, secret *corev1.Secret, fp string) (*Clients, error) {
	cfg, err := restConfig(c, secret, m.qps, m.burst)
	if err != nil {
		return nil, err
	}
	built, err := newClients(m.parent, c.Name, cfg)
	if err != nil {
		return nil, err
	}
	built.fingerprint = fp
	return built, nil
}

// newClients builds the clients of cluster from cfg; their informers run
// until parent ends or the clients are stopped.
func newClients(parent context.Context, cluster string, cfg *rest.Config) (*Clients, error) {
	cfg = slimwire.ForComponents(cfg) // the members' answers decoded without managedFields
	kube, err := kubernetes.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return nil, fmt.Errorf("client of cluster %s: %w", cluster, err)
	}
	dyn, err := dynamic.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("dynamic client of cluster %s: %w", cluster, err)
	}
	proto, err := protowatch.NewClients(cfg)
	if err != nil {
		return nil, fmt.Errorf("protobuf clients of cluster %s: %w", cluster, err)
	}
	disc := memory.NewMemCacheClient(kube.Discovery())
	ctx, stop := context.WithCancel(parent)
	return &Clients{
		Cluster:   cluster,
		Config:    rest.CopyConfig(cfg),
		Kube:      kube,
		Dynamic:   dyn,
		Discovery: disc,
		Mapper:    restmapper.NewDeferredDiscoveryRESTMapper(disc),
		objects:   dynamicinformer.NewFilteredDynamicSharedInformerFactory(dyn, objectsResync, metav1.NamespaceAll, managed),
		proto:     newProtoObjects(proto),
		Typed:     informers.NewSharedInformerFactoryWithOptions(kube, 10*time.Minute, informers.WithTransform(slimTyped)),
		ctx:       ctx,
		stop:      stop,
	}, nil
}
