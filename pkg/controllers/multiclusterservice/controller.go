// Package multiclusterservice acts on MultiClusterServices of type
// CrossCluster: it collects the EndpointSlices of the Service in its
// provider clusters into mco and dispatches them, by Works, to its
// consumer clusters, where they attach to the consumers' own Service of
// the same name.
package multiclusterservice

import (
	"context"
	"fmt"
	"maps"
	"sync"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/dynamic"
	kubeinformers "k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	discoverylisters "k8s.io/client-go/listers/discovery/v1"
	"k8s.io/client-go/tools/cache"

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
		o.LabelSelector = discoveryv1.LabelManagedBy + "=" + mcs.ManagedByDispatch
	}))
	ownSlices := sliceFactory.Discovery().V1().EndpointSlices()
	writer, err := works.NewWriter(c.MCO, workInf.Informer(), 1024)
	if err != nil {
		return nil, fmt.Errorf("multiclusterservice controller: %w", err)
	}
	m := &Controller{mco: c.MCO, kube: c.Kube, dynamic: c.Dynamic, templates: c.Templates, bindings: c.Bindings,
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
		{services.Informer(), m.enqueueEach(func(obj any) (key, bool) {
			o, ok := obj.(metav1.Object)
			return key{o.GetNamespace(), o.GetName()}, ok
		})},
		{ownSlices.Informer(), m.enqueueEach(sliceService)},
		{workInf.Informer(), m.enqueueEach(workService)},
		// The Service's binding, when someone else changed what the
		// MultiClusterService keeps of it.
		{rbs, cache.ResourceEventHandlerFuncs{
			AddFunc: m.enqueueBindingOwner, DeleteFunc: m.enqueueBindingOwner,
			UpdateFunc: func(o, n any) {
				if bindingClaimChanged(o, n) {
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
	// The Service a MultiClusterService names: created after it, or changed.
	if err := c.Templates.OnKind(func(r template.Resource, inf cache.SharedIndexInformer) error {
		if r.GVR != serviceGVR {
			return nil
		}
		_, err := inf.AddEventHandler(m.enqueueEach(m.namedService))
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

func (m *Controller) enqueueAll() {
	list, _ := m.services.List(labels.Everything())
	for _, s := range list {
		m.loop.Enqueue(key{s.Namespace, s.Name})
	}
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

// namedService is the key of a Service a MultiClusterService names.
func (m *Controller) namedService(obj any) (key, bool) {
	o, ok := obj.(metav1.Object)
	if !ok {
		return key{}, false
	}
	_, err := m.services.MultiClusterServices(o.GetNamespace()).Get(o.GetName())
	return key{o.GetNamespace(), o.GetName()}, err == nil || o.GetLabels()[networkingv1alpha1.ResourceTemplateClaimedByLabel] != ""
}

// enqueueBindingOwner enqueues the MultiClusterService of a Service's
// binding, when there is one.
func (m *Controller) enqueueBindingOwner(obj any) {
	if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
		obj = t.Obj
	}
	rb, ok := obj.(*workv1alpha2.ResourceBinding)
	if !ok || rb.Spec.Resource.Kind != serviceGVK.Kind || rb.Spec.Resource.APIVersion != "v1" {
		return
	}
	if _, err := m.services.MultiClusterServices(rb.Namespace).Get(rb.Spec.Resource.Name); err == nil {
		m.loop.Enqueue(key{rb.Namespace, rb.Spec.Resource.Name})
	}
}

// bindingClaimChanged tells whether a binding update changed what a
// MultiClusterService keeps of it (not its status or clusters).
func bindingClaimChanged(o, n any) bool {
	ob, ok1 := o.(*workv1alpha2.ResourceBinding)
	nb, ok2 := n.(*workv1alpha2.ResourceBinding)
	if !ok1 || !ok2 {
		return true
	}
	return !maps.Equal(ob.Labels, nb.Labels) || !maps.Equal(ob.Annotations, nb.Annotations) ||
		!equality.Semantic.DeepEqual(ob.Spec.Placement, nb.Spec.Placement) || ob.Spec.ConflictResolution != nb.Spec.ConflictResolution
}

// sliceService is the Service of one of mco's slices.
func sliceService(obj any) (key, bool) {
	s, ok := obj.(*discoveryv1.EndpointSlice)
	if !ok || mcs.ServiceOf(s) == "" {
		return key{}, false
	}
	return key{s.Namespace, mcs.ServiceOf(s)}, true
}
