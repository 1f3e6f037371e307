package multiclusterservice

import (
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
)

// providerSlices returns what provider has of a Service: the slices mco
// keeps for it (mcs.Dispatched of the member's own), read from the
// member's EndpointSlice informer (one per member, never a LIST per
// Service). synced is false while that informer fills.
func (m *Controller) providerSlices(provider string, svc *networkingv1alpha1.MultiClusterService) (out []*discoveryv1.EndpointSlice, synced bool, err error) {
	clients, err := m.members.Get(provider)
	if err != nil {
		return nil, false, fmt.Errorf("clients of cluster %s: %w", provider, err)
	}
	inf := clients.Typed.Discovery().V1().EndpointSlices()
	if err := m.watch(provider, inf.Informer()); err != nil {
		return nil, false, err
	}
	clients.Start()
	if !inf.Informer().HasSynced() {
		return nil, false, nil
	}
	list, err := inf.Lister().EndpointSlices(svc.Namespace).List(labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: svc.Name}))
	if err != nil {
		return nil, false, err
	}
	for _, s := range list {
		if mcs.Own(s) {
			out = append(out, mcs.Dispatched(provider, s, svc.Spec.Ports))
		}
	}
	return out, true, nil
}

// watch adds, once per set of clients, the handler that brings a member's
// slice changes to the Service they belong to.
func (m *Controller) watch(cluster string, inf cache.SharedIndexInformer) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.watched[cluster] {
		return nil
	}
	enqueue := func(obj any) {
		if t, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = t.Obj
		}
		s, ok := obj.(*discoveryv1.EndpointSlice)
		if !ok || !mcs.Own(s) {
			return
		}
		// Only Services a MultiClusterService names.
		if _, err := m.services.MultiClusterServices(s.Namespace).Get(mcs.ServiceOf(s)); err == nil {
			m.loop.Enqueue(key{s.Namespace, mcs.ServiceOf(s)})
		}
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc: enqueue, UpdateFunc: func(_, n any) { enqueue(n) }, DeleteFunc: enqueue,
	}); err != nil {
		return fmt.Errorf("watch the EndpointSlices of cluster %s: %w", cluster, err)
	}
	m.watched[cluster] = true
	return nil
}
