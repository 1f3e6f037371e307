package multiclusterservice

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
)

// outcome is what one pass found, for the status.
type outcome struct {
	// problems say why some endpoints are not dispatched.
	problems  []string
	providers []string
	consumers []string
	slices    int
}

// sync brings one Service's collected and dispatched slices to what its
// MultiClusterService, ServiceExport and ServiceImport ask.
func (m *Controller) sync(ctx context.Context, k key) error {
	if err := m.syncMCS(ctx, k); err != nil {
		return err
	}
	return m.syncImport(ctx, k)
}

// syncMCS brings the slices a MultiClusterService dispatches to what it
// asks (none when it is gone or not CrossCluster).
func (m *Controller) syncMCS(ctx context.Context, k key) error {
	svc, err := m.services.MultiClusterServices(k.Namespace).Get(k.Name)
	if apierrors.IsNotFound(err) {
		svc = nil
	} else if err != nil {
		return err
	}
	var desired = newSliceSet()
	var out outcome
	var conditions []metav1.Condition
	if svc != nil && svc.DeletionTimestamp == nil && mcs.CrossCluster(&svc.Spec) {
		applied, err := m.propagateService(ctx, svc)
		if err != nil {
			return err
		}
		conditions = append(conditions, applied)
		pending, err := m.collect(svc, desired, &out)
		if err != nil {
			return err
		}
		if pending {
			m.loop.EnqueueAfter(k, time.Second)
		}
	} else if err := m.releaseService(ctx, k); err != nil {
		return err
	}
	if err := m.reconcileCopies(ctx, viaMCS, k, desired); err != nil {
		return err
	}
	if err := m.reconcileWorks(ctx, viaMCS, k, desired, out.consumers); err != nil {
		return err
	}
	if err := m.reconcileProviderWorks(ctx, k, svc, out.providers); err != nil {
		return err
	}
	if svc == nil || svc.DeletionTimestamp != nil {
		return nil
	}
	return m.writeStatus(ctx, svc, append(conditions, condition(svc, &out)))
}

// collect gathers into desired the slices of every provider this process
// reaches and that is ready, and notes in out what is left out and why.
// pending is true while a provider's informer fills.
func (m *Controller) collect(svc *networkingv1alpha1.MultiClusterService, desired *sliceSet, out *outcome) (pending bool, err error) {
	byName, joined, err := m.joined()
	if err != nil {
		return false, err
	}
	providers, consumers, unknown := mcs.Clusters(&svc.Spec, joined)
	out.consumers, out.providers = consumers, providers
	if len(unknown) > 0 {
		out.problems = append(out.problems, fmt.Sprintf("cluster(s) %s have not joined", strings.Join(unknown, ", ")))
	}
	problems, pending, err := m.gather(key{svc.Namespace, svc.Name}, providers, byName, func(p string, s *discoveryv1.EndpointSlice) *discoveryv1.EndpointSlice {
		return mcs.Dispatched(p, s, svc.Spec.Ports)
	}, desired)
	if err != nil {
		return false, err
	}
	out.problems = append(out.problems, problems...)
	out.slices = desired.len()
	return pending, nil
}

// joined are the clusters that have joined and are not leaving, by name
// and their names.
func (m *Controller) joined() (map[string]*clusterv1alpha1.Cluster, []string, error) {
	list, err := m.clusters.List(labels.Everything())
	if err != nil {
		return nil, nil, err
	}
	byName := map[string]*clusterv1alpha1.Cluster{}
	var names []string
	for _, c := range list {
		if c.DeletionTimestamp == nil {
			names = append(names, c.Name)
			byName[c.Name] = c
		}
	}
	return byName, names, nil
}

// gather adds to desired, converted, the own slices of Service k in every
// provider that is ready and that this process reaches; problems say who
// is left out and why. pending is true while a provider's informer fills.
func (m *Controller) gather(k key, providers []string, byName map[string]*clusterv1alpha1.Cluster,
	convert func(provider string, s *discoveryv1.EndpointSlice) *discoveryv1.EndpointSlice, desired *sliceSet) (problems []string, pending bool, err error) {
	for _, p := range providers {
		c, ok := byName[p]
		switch {
		case !ok:
			problems = append(problems, fmt.Sprintf("provider %s has not joined", p))
			continue
		case !meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady):
			// Beyond Karmada: a failed provider's endpoints are withdrawn
			// until it is ready again.
			problems = append(problems, fmt.Sprintf("provider %s is not ready: its endpoints are withdrawn", p))
			continue
		}
		slices, synced, err := m.providerSlices(p, k)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("provider %s: %v", p, err))
			continue
		case !synced:
			pending = true
			continue
		}
		for _, s := range slices {
			desired.add(convert(p, s))
		}
	}
	return problems, pending, nil
}

// condition is the EndpointSliceDispatched condition of one pass.
func condition(svc *networkingv1alpha1.MultiClusterService, out *outcome) metav1.Condition {
	c := metav1.Condition{Type: networkingv1alpha1.ConditionEndpointSliceDispatched, ObservedGeneration: svc.Generation}
	switch {
	case !mcs.CrossCluster(&svc.Spec):
		c.Status, c.Reason = metav1.ConditionFalse, "LoadBalancerNotImplemented"
		c.Message = "type LoadBalancer is accepted and not implemented by mco: only CrossCluster is acted on"
	case len(out.problems) > 0:
		sort.Strings(out.problems)
		c.Status, c.Reason = metav1.ConditionFalse, networkingv1alpha1.ConditionEndpointSliceDispatched+"Failed"
		c.Message = strings.Join(out.problems, "; ")
	default:
		c.Status, c.Reason = metav1.ConditionTrue, networkingv1alpha1.ConditionEndpointSliceDispatched+"Succeed"
		c.Message = fmt.Sprintf("%d EndpointSlice(s) of %d provider(s) dispatched to consumer(s) %s", out.slices, len(out.providers), strings.Join(out.consumers, ", "))
	}
	return c
}

// writeStatus sets the conditions when they changed.
func (m *Controller) writeStatus(ctx context.Context, cached *networkingv1alpha1.MultiClusterService, conditions []metav1.Condition) error {
	svc := cached.DeepCopy()
	changed := false
	for _, c := range conditions {
		changed = meta.SetStatusCondition(&svc.Status.Conditions, c) || changed
	}
	if !changed {
		return nil
	}
	if _, err := m.mco.NetworkingV1alpha1().MultiClusterServices(svc.Namespace).UpdateStatus(ctx, svc, metav1.UpdateOptions{}); err != nil && !apierrors.IsNotFound(err) {
		return fmt.Errorf("update the status of MultiClusterService %s/%s: %w", svc.Namespace, svc.Name, err)
	}
	return nil
}
