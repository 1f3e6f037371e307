package multiclusterservice

import (
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/names"
)

// providerSlices returns a provider's own slices of Service k (none that
// mco or Karmada put there): for a Push member, read from its
// EndpointSlice informer (one per member, never a LIST per Service); for
// a Pull member, from the Works its agent reports them by. synced is false
// while the informer fills.
func (m *Controller) providerSlices(provider string, k key) (out []*discoveryv1.EndpointSlice, synced bool, err error) {
	if !m.members.Reaches(provider) {
		reported, err := m.works.Works(names.ExecutionSpace(provider)).List(labels.SelectorFromSet(labels.Set{
			mcs.CollectedNamespaceLabel: k.Namespace, mcs.CollectedNameLabel: k.Name}))
		if err != nil {
			return nil, false, err
		}
		out, err := mcs.CollectedSlices(reported)
		return out, true, err
	}
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
	list, err := inf.Lister().EndpointSlices(k.Namespace).List(labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: k.Name}))
	if err != nil {
		return nil, false, err
	}
	for _, s := range list {
		if mcs.Own(s) {
			out = append(out, s)
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
		// Only Services a MultiClusterService names or that are exported.
		k := key{s.Namespace, mcs.ServiceOf(s)}
		if m.crossing(k) {
			m.loop.Enqueue(k)
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

// crossing tells whether Service k crosses clusters: a MultiClusterService
// names it or a ServiceExport exports it.
func (m *Controller) crossing(k key) bool {
	if _, err := m.services.MultiClusterServices(k.Namespace).Get(k.Name); err == nil {
		return true
	}
	_, _, err := m.mcsTemplate(mcs.ServiceExportGK, k)
	return err == nil
}
