package multiclusterservice

import (
	"context"
	"errors"
	"sort"
	"time"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/names"
	"github.com/mco-org/mco/pkg/template"
)

// errNotServed: the MCS API's kinds are not served (yet).
var errNotServed = errors.New("the MCS API is not served")

// mcsTemplate returns the ServiceExport or ServiceImport (gk) of Service
// k, and its kind at the version mco follows.
func (m *Controller) mcsTemplate(gk schema.GroupKind, k key) (*unstructured.Unstructured, template.Resource, error) {
	r, ok := m.templates.ByGroupKind(gk)
	if !ok {
		return nil, r, errNotServed
	}
	obj, err := m.templates.Get(template.Key{GVK: r.GVK, Namespace: k.Namespace, Name: k.Name})
	return obj, r, err
}

// syncImport is Karmada's export/import path for Service k: the slices of
// the clusters its ServiceExport was propagated to are collected on mco
// as imported-<cluster>-<slice>, attached to derived-<name>, and
// dispatched to the clusters its ServiceImport was propagated to; the
// ServiceImport derives that Service and lists the exporting clusters.
// Deleting the ServiceExport withdraws everything it exported.
func (m *Controller) syncImport(ctx context.Context, k key) error {
	desired := newSliceSet()
	var collected []string
	if exporters := m.targets(mcs.ServiceExportGK, k); len(exporters) > 0 {
		byName, _, err := m.joined()
		if err != nil {
			return err
		}
		problems, pending, err := m.gather(k, exporters, byName, func(p string, s *discoveryv1.EndpointSlice) *discoveryv1.EndpointSlice {
			return mcs.Imported(p, s)
		}, desired)
		if err != nil {
			return err
		}
		if pending {
			m.loop.EnqueueAfter(k, time.Second)
		}
		if len(problems) > 0 {
			klog.FromContext(ctx).V(2).Info("Exported endpoints left out", "service", k, "why", problems)
		}
		collected = collectedFrom(desired)
	}
	if err := m.reconcileCopies(ctx, viaImport, k, desired); err != nil {
		return err
	}
	if err := m.reconcileWorks(ctx, viaImport, k, desired, m.targets(mcs.ServiceImportGK, k)); err != nil {
		return err
	}
	return m.syncDerived(ctx, k, collected)
}

// targets are the clusters the binding of k's ServiceExport or
// ServiceImport (gk) is scheduled to; none once it is gone.
func (m *Controller) targets(gk schema.GroupKind, k key) []string {
	if _, _, err := m.mcsTemplate(gk, k); err != nil {
		return nil
	}
	v, err := m.bindings.Get(binding.Key{Namespace: k.Namespace, Name: names.Binding(gk.Kind, k.Name)})
	if err != nil || v.Meta.DeletionTimestamp != nil {
		return nil
	}
	out := make([]string, 0, len(v.Spec.Clusters))
	for _, c := range v.Spec.Clusters {
		out = append(out, c.Name)
	}
	sort.Strings(out)
	return out
}

// collectedFrom lists, sorted, the clusters the slices come from.
func collectedFrom(s *sliceSet) []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range s.byName {
		if c := e.Annotations[mcs.ProvisionClusterAnnotation]; !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	}
	sort.Strings(out)
	return out
}
