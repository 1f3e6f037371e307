package endpointslicecollect

import (
	"context"
	"fmt"

	discoveryv1 "k8s.io/api/discovery/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/names"
)

// sync makes the collected Works of Service k the member's own slices of
// it while something asks for them, and none otherwise.
func (m *Controller) sync(ctx context.Context, k key) error {
	want := map[string]*workv1alpha1.Work{}
	if owners := m.owners(k); len(owners) > 0 {
		slices, err := m.clients.Typed.Discovery().V1().EndpointSlices().Lister().EndpointSlices(k.Namespace).List(
			labels.SelectorFromSet(labels.Set{discoveryv1.LabelServiceName: k.Name}))
		if err != nil {
			return err
		}
		for _, s := range slices {
			if !mcs.Own(s) {
				continue
			}
			w, err := mcs.CollectedWork(m.cluster, s, owners)
			if err != nil {
				return err
			}
			want[w.Name] = w
		}
	}
	ns := names.ExecutionSpace(m.cluster)
	have, err := m.works.Works(ns).List(labels.SelectorFromSet(labels.Set{mcs.CollectedNamespaceLabel: k.Namespace, mcs.CollectedNameLabel: k.Name}))
	if err != nil {
		return err
	}
	for _, w := range have {
		if _, ok := want[w.Name]; ok || w.DeletionTimestamp != nil {
			continue
		}
		if err := m.mco.WorkV1alpha1().Works(ns).Delete(ctx, w.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete collected work %s/%s: %w", ns, w.Name, err)
		}
	}
	for _, w := range want {
		if _, err := m.writer.Ensure(ctx, w); err != nil {
			return err
		}
	}
	return nil
}

// owners say why Service k's slices are collected: a ServiceExport this
// agent applies, a MultiClusterService that names this member a provider.
func (m *Controller) owners(k key) []string {
	var out []string
	if exports, _ := m.index.ByIndex(exportIndex, k.Namespace+"/"+k.Name); len(exports) > 0 {
		out = append(out, mcs.ByExport)
	}
	ns := names.ExecutionSpace(m.cluster)
	if providers, _ := m.works.Works(ns).List(labels.SelectorFromSet(labels.Set{mcs.ProviderNamespaceLabel: k.Namespace, mcs.ProviderNameLabel: k.Name})); len(providers) > 0 {
		out = append(out, mcs.ByMCS)
	}
	return out
}
