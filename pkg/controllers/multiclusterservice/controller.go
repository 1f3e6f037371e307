// Package multiclusterservice makes Services reachable across clusters,
// both of Karmada's ways. A MultiClusterService of type CrossCluster
// propagates its Service to providers and consumers, collects the
// Service's EndpointSlices in its providers into mco and dispatches them,
// by Works, to its consumers, where they attach to the consumers' own
// Service of the same name. A ServiceExport has the slices of the clusters
// it went to collected (imported-<cluster>-<slice>), and a ServiceImport
// gets them in the clusters it went to, attached to the Service it
// derives (derived-<name>).
package multiclusterservice

import (
	"context"
	"fmt"
	"maps"
	"strings"
	"sync"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/tools/record"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/controller"
	"github.com/mco-org/mco/pkg/controllers/shared"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	networkinglisters "github.com/mco-org/mco/pkg/generated/listers/networking/v1alpha1"
	worklisters "github.com/mco-org/mco/pkg/generated/listers/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/member"
	"github.com/mco-org/mco/pkg/template"
	"github.com/mco-org/mco/pkg/works"
)

// key is one Service: its MultiClusterService has its name.
type key struct{ Namespace, Name string }

// Controller keeps every CrossCluster MultiClusterService's slices
// collected on mco and dispatched to its consumers.
type Controller struct {
	mco       mcoclient.Interface
	kube      kubernetes.Interface
	dynamic   dynamic.Interface
	templates *template.Resources
	bindings  *binding.Store
	recorder  record.EventRecorder
	services  networkinglisters.MultiClusterServiceLister
	clusters  clusterlisters.ClusterLister
	slices    discoverylisters.EndpointSliceLister
	works     worklisters.WorkLister
	writer    *works.Writer
	members   member.Source
	loop      *controller.Controller[key]

	mu sync.Mutex
	// watched are the clusters whose EndpointSlice informer has this
	// controller's handler, forgotten when their clients are replaced.
	watched map[string]bool
}

// New builds the controller.
func New(_ context.Context, c *shared.Context) (shared.Runner, error) {
	services := c.MCOInformers.Networking().V1alpha1().MultiClusterServices()
	clusters := c.MCOInformers.Cluster().V1alpha1().Clusters()
	workInf := c.MCOInformers.Work().V1alpha1().Works()
	// mco's copies only: the slices this controller and the export path
	// manage.
	sliceFactory := kubeinformers.NewSharedInformerFactoryWithOptions(c.Kube, 0, kubeinformers.WithTweakListOptions(func(o *metav1.ListOptions) {
		o.LabelSelector = discoveryv1.LabelManagedBy + " in (" + mcs.ManagedByDispatch + "," + mcs.ManagedByImport + ")"
	}))
	ownSlices := sliceFactory.Discovery().V1().EndpointSlices()
	writer, err := works.NewWriter(c.MCO, workInf.Informer(), 1024)
	if err != nil {
		return nil, fmt.Errorf("multiclusterservice controller: %w", err)
	}
	m := &Controller{mco: c.MCO, kube: c.Kube, dynamic: c.Dynamic, templates: c.Templates, bindings: c.Bindings, recorder: c.NewRecorder(),
		services: services.Lister(), clusters: clusters.Lister(),
		slices: ownSlices.Lister(), works: workInf.Lister(), writer: writer, members: c.Members, watched: map[string]bool{}}
	m.loop = controller.New("multiclusterservice", m.sync)
	rbs := c.MCOInformers.Work().V1alpha2().ResourceBindings().Informer()
	m.loop.WaitFor(services.Informer().HasSynced, clusters.Informer().HasSynced, workInf.Informer().HasSynced, ownSlices.Informer().HasSynced)
	m.loop.WaitFor(rbs.HasSynced, c.Templates.HasSynced)
	handlers := []struct {
		inf cache.SharedIndexInformer
		h   cache.ResourceEventHandler
	}{
		{services.Informer(), m.enqueueEach(objectKey)},
		{ownSlices.Informer(), m.enqueueEach(sliceService)},
		{workInf.Informer(), m.enqueueEach(workService)},
		// The Service's binding, when someone else changed what the
		// MultiClusterService keeps of it; where exports and imports go.
		{rbs, cache.ResourceEventHandlerFuncs{
			AddFunc: m.enqueueBindingOwner, DeleteFunc: m.enqueueBindingOwner,
			UpdateFunc: func(o, n any) {
				if bindingChanged(o, n) {
					m.enqueueBindingOwner(n)
				}
			},
		}},
		// Clusters join, leave and turn ready or not: who provides and
		// consumes changes. Their frequent status writes otherwise do not
		// matter here.
		{clusters.Informer(), cache.ResourceEventHandlerFuncs{
			AddFunc: func(any) { m.enqueueAll() }, DeleteFunc: func(any) { m.enqueueAll() },
			UpdateFunc: func(o, n any) {
				if readinessChanged(o, n) {
					m.enqueueAll()
				}
			},
		}},
	}
	for _, h := range handlers {
		if _, err := h.inf.AddEventHandler(h.h); err != nil {
			return nil, fmt.Errorf("multiclusterservice controller: %w", err)
		}
	}
	c.Members.OnChange(m.memberChanged)
	// The Service a MultiClusterService names (created after it, or
	// changed), a derived Service, ServiceExports and ServiceImports.
	if err := c.Templates.OnKind(func(r template.Resource, inf cache.SharedIndexInformer) error {
		var of func(any) (key, bool)
		switch r.GVK.GroupKind() {
		case serviceGVK.GroupKind():
			of = m.namedService
		case mcs.ServiceExportGK, mcs.ServiceImportGK:
			of = objectKey
		default:
			return nil
		}
		_, err := inf.AddEventHandler(m.enqueueEach(of))
		return err
	}); err != nil {
		return nil, fmt.Errorf("multiclusterservice controller: %w", err)
	}
	return func(ctx context.Context) error {
		sliceFactory.Start(ctx.Done())
		return m.loop.Run(ctx, 2)
	}, nil
}

// enqueueEach enqueues the Service an object names, on every event.
func (m *Controller) enqueueEach(of func(any) (key, bool)) cache.ResourceEventHandler {
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		if k, ok := of(obj); ok {
			m.loop.Enqueue(k)
		}
	}
	return cache.ResourceEventHandlerFuncs{AddFunc: enqueue, UpdateFunc: func(_, n any) { enqueue(n) }, DeleteFunc: enqueue}
}

// enqueueAll enqueues every MultiClusterService and every ServiceExport.
func (m *Controller) enqueueAll() {
	list, _ := m.services.List(labels.Everything())
	for _, s := range list {
		m.loop.Enqueue(key{s.Namespace, s.Name})
	}
	r, ok := m.templates.ByGroupKind(mcs.ServiceExportGK)
	if !ok {
		return
	}
	if lister, ok := m.templates.Lister(r); ok {
		exports, _ := lister.List(labels.Everything())
		for _, e := range exports {
			if k, ok := objectKey(e); ok {
				m.loop.Enqueue(k)
			}
		}
	}
}

// objectKey is the key of an object of the Service's name.
func objectKey(obj any) (key, bool) {
	o, ok := obj.(metav1.Object)
	if !ok {
		return key{}, false
	}
	return key{o.GetNamespace(), o.GetName()}, true
}

// memberChanged forgets the handler of a cluster whose clients were
// replaced, and looks at every Service again.
func (m *Controller) memberChanged(cluster string) {
	m.mu.Lock()
	delete(m.watched, cluster)
	m.mu.Unlock()
	m.enqueueAll()
}

// readinessChanged tells whether a Cluster update changed its Ready
// condition or its deletion.
func readinessChanged(o, n any) bool {
	oc, ok1 := o.(*clusterv1alpha1.Cluster)
	nc, ok2 := n.(*clusterv1alpha1.Cluster)
	if !ok1 || !ok2 {
		return true
	}
	ready := func(c *clusterv1alpha1.Cluster) bool {
		return meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady)
	}
	return ready(oc) != ready(nc) || (oc.DeletionTimestamp == nil) != (nc.DeletionTimestamp == nil)
}

// namedService is the key of a Service a MultiClusterService names (or
// claimed), or of the Service a derived-<name> Service derives from.
func (m *Controller) namedService(obj any) (key, bool) {
	o, ok := obj.(metav1.Object)
	if !ok {
		return key{}, false
	}
	if name, derived := strings.CutPrefix(o.GetName(), mcs.DerivedPrefix); derived {
		return key{o.GetNamespace(), name}, true
	}
	_, err := m.services.MultiClusterServices(o.GetNamespace()).Get(o.GetName())
	return key{o.GetNamespace(), o.GetName()}, err == nil || o.GetLabels()[networkingv1alpha1.ResourceTemplateClaimedByLabel] != ""
}

// enqueueBindingOwner enqueues the Service of a binding that matters
// here: a Service's a MultiClusterService keeps, a ServiceExport's or a
// ServiceImport's (their clusters export and import).
func (m *Controller) enqueueBindingOwner(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	rb, ok := obj.(*workv1alpha2.ResourceBinding)
	if !ok {
		return
	}
	k := key{rb.Namespace, rb.Spec.Resource.Name}
	switch gvk := schema.FromAPIVersionAndKind(rb.Spec.Resource.APIVersion, rb.Spec.Resource.Kind); gvk.GroupKind() {
	case mcs.ServiceExportGK, mcs.ServiceImportGK:
		m.loop.Enqueue(k)
	case serviceGVK.GroupKind():
		if _, err := m.services.MultiClusterServices(rb.Namespace).Get(k.Name); err == nil {
			m.loop.Enqueue(k)
		}
	}
}

// bindingChanged tells whether a binding update changed what matters
// here: the claim and placement a MultiClusterService keeps, or the
// clusters (not its status).
func bindingChanged(o, n any) bool {
	ob, ok1 := o.(*workv1alpha2.ResourceBinding)
	nb, ok2 := n.(*workv1alpha2.ResourceBinding)
	if !ok1 || !ok2 {
		return true
	}
	return !maps.Equal(ob.Labels, nb.Labels) || !maps.Equal(ob.Annotations, nb.Annotations) ||
		!equality.Semantic.DeepEqual(ob.Spec.Placement, nb.Spec.Placement) || ob.Spec.ConflictResolution != nb.Spec.ConflictResolution ||
		!equality.Semantic.DeepEqual(ob.Spec.Clusters, nb.Spec.Clusters) || (ob.DeletionTimestamp == nil) != (nb.DeletionTimestamp == nil)
}

// sliceService is the Service of one of mco's slices (derived-<name>'s
// are <name>'s).
func sliceService(obj any) (key, bool) {
	s, ok := obj.(*discoveryv1.EndpointSlice)
	if !ok || mcs.ServiceOf(s) == "" {
		return key{}, false
	}
	name := mcs.ServiceOf(s)
	if s.Labels[discoveryv1.LabelManagedBy] == mcs.ManagedByImport {
		name = strings.TrimPrefix(name, mcs.DerivedPrefix)
	}
	return key{s.Namespace, name}, true
}
