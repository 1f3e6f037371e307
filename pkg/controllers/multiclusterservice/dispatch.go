package multiclusterservice

import (
	"context"
	"encoding/json"
	"fmt"
	"sort"

	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/names"
)

// Labels of the Works that carry a Service's slices to its consumers, by
// MultiClusterService and by ServiceImport.
const (
	NamespaceLabel       = "mcs.mco-org.github.io/namespace"
	NameLabel            = "mcs.mco-org.github.io/name"
	ImportNamespaceLabel = "mcs.mco-org.github.io/import-namespace"
	ImportNameLabel      = "mcs.mco-org.github.io/import-name"
)

// path is one of the two ways a Service's slices travel.
type path struct {
	// managedBy is the managed-by label of mco's copies.
	managedBy string
	// attachedTo is the Service the copies attach to in consumers.
	attachedTo func(service string) string
	// nsLabel and nameLabel mark the Works that carry them.
	nsLabel, nameLabel string
	// ownBack gives a provider its own slices too: on the export/import
	// path they attach to derived-<service>, not to its own Service.
	ownBack bool
}

var (
	// viaMCS: a MultiClusterService's <provider>-<slice> copies, on the
	// consumers' own Service.
	viaMCS = path{managedBy: mcs.ManagedByDispatch, attachedTo: func(s string) string { return s },
		nsLabel: NamespaceLabel, nameLabel: NameLabel}
	// viaImport: an exported Service's imported-<cluster>-<slice> copies,
	// on derived-<service> where a ServiceImport is.
	viaImport = path{managedBy: mcs.ManagedByImport, attachedTo: func(s string) string { return mcs.DerivedPrefix + s },
		nsLabel: ImportNamespaceLabel, nameLabel: ImportNameLabel, ownBack: true}
)

// sliceSet holds slices by name.
type sliceSet struct {
	byName map[string]*discoveryv1.EndpointSlice
}

func newSliceSet() *sliceSet { return &sliceSet{byName: map[string]*discoveryv1.EndpointSlice{}} }

func (s *sliceSet) add(e *discoveryv1.EndpointSlice) { s.byName[e.Name] = e }
func (s *sliceSet) len() int                         { return len(s.byName) }

// sorted lists the slices by name, for a stable order of writes.
func (s *sliceSet) sorted() []*discoveryv1.EndpointSlice {
	out := make([]*discoveryv1.EndpointSlice, 0, len(s.byName))
	for _, e := range s.byName {
		out = append(out, e)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

// reconcileCopies makes mco's copies of the Service's slices the desired
// ones: created, updated when they differ, deleted when no longer wanted.
func (m *Controller) reconcileCopies(ctx context.Context, p path, k key, desired *sliceSet) error {
	existing, err := m.slices.EndpointSlices(k.Namespace).List(labels.SelectorFromSet(labels.Set{
		discoveryv1.LabelServiceName: p.attachedTo(k.Name), discoveryv1.LabelManagedBy: p.managedBy}))
	if err != nil {
		return err
	}
	client := m.kube.DiscoveryV1().EndpointSlices(k.Namespace)
	have := map[string]*discoveryv1.EndpointSlice{}
	for _, e := range existing {
		have[e.Name] = e
		if _, ok := desired.byName[e.Name]; !ok {
			if err := client.Delete(ctx, e.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
				return fmt.Errorf("delete EndpointSlice %s/%s: %w", k.Namespace, e.Name, err)
			}
		}
	}
	for _, want := range desired.sorted() {
		got, ok := have[want.Name]
		switch {
		case !ok:
			if _, err := client.Create(ctx, want, metav1.CreateOptions{}); err != nil && !apierrors.IsAlreadyExists(err) {
				return fmt.Errorf("create EndpointSlice %s/%s: %w", k.Namespace, want.Name, err)
			}
		case !sameSlice(got, want):
			update := got.DeepCopy()
			update.Labels, update.Annotations = want.Labels, want.Annotations
			update.AddressType, update.Endpoints, update.Ports = want.AddressType, want.Endpoints, want.Ports
			if _, err := client.Update(ctx, update, metav1.UpdateOptions{}); err != nil {
				return fmt.Errorf("update EndpointSlice %s/%s: %w", k.Namespace, want.Name, err)
			}
		}
	}
	return nil
}

// sameSlice compares what mco writes of a slice.
func sameSlice(got, want *discoveryv1.EndpointSlice) bool {
	return equality.Semantic.DeepEqual(got.Labels, want.Labels) && equality.Semantic.DeepEqual(got.Annotations, want.Annotations) &&
		got.AddressType == want.AddressType && equality.Semantic.DeepEqual(got.Endpoints, want.Endpoints) &&
		equality.Semantic.DeepEqual(got.Ports, want.Ports)
}

// reconcileWorks gives each consumer a Work per slice (of the other
// clusters only, unless p.ownBack) and deletes the Works no longer wanted.
func (m *Controller) reconcileWorks(ctx context.Context, p path, k key, desired *sliceSet, consumers []string) error {
	want := map[string]*workv1alpha1.Work{}
	for _, c := range consumers {
		for _, s := range desired.sorted() {
			if !p.ownBack && s.Annotations[mcs.ProvisionClusterAnnotation] == c {
				continue
			}
			w, err := sliceWork(p, k, c, s)
			if err != nil {
				return err
			}
			want[w.Namespace+"/"+w.Name] = w
		}
	}
	return m.keepWorks(ctx, labels.Set{p.nsLabel: k.Namespace, p.nameLabel: k.Name}, want)
}

// keepWorks makes the Works labelled set the wanted ones (by
// "<namespace>/<name>"): those not wanted are deleted, the others created
// or brought up to date, in order of name.
func (m *Controller) keepWorks(ctx context.Context, set labels.Set, want map[string]*workv1alpha1.Work) error {
	existing, err := m.works.List(labels.SelectorFromSet(set))
	if err != nil {
		return err
	}
	for _, w := range existing {
		if _, ok := want[w.Namespace+"/"+w.Name]; ok || w.DeletionTimestamp != nil {
			continue
		}
		err := m.mco.WorkV1alpha1().Works(w.Namespace).Delete(ctx, w.Name, metav1.DeleteOptions{})
		if err != nil && !apierrors.IsNotFound(err) {
			return fmt.Errorf("delete work %s/%s: %w", w.Namespace, w.Name, err)
		}
	}
	keys := make([]string, 0, len(want))
	for name := range want {
		keys = append(keys, name)
	}
	sort.Strings(keys)
	for _, name := range keys {
		if _, err := m.writer.Ensure(ctx, want[name]); err != nil {
			return err
		}
	}
	return nil
}

// sliceWork is the Work carrying slice s to consumer.
func sliceWork(p path, k key, consumer string, s *discoveryv1.EndpointSlice) (*workv1alpha1.Work, error) {
	raw, err := json.Marshal(s)
	if err != nil {
		return nil, fmt.Errorf("encode EndpointSlice %s/%s: %w", s.Namespace, s.Name, err)
	}
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:  names.ExecutionSpace(consumer),
			Name:       names.Work("EndpointSlice", s.Name, s.Namespace),
			Labels:     map[string]string{p.nsLabel: k.Namespace, p.nameLabel: k.Name},
			Finalizers: []string{workv1alpha1.ExecutionControllerFinalizer},
		},
		Spec: workv1alpha1.WorkSpec{Workload: workv1alpha1.WorkloadTemplate{
			Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: raw}}},
		}},
	}, nil
}

// workService is the Service of a Work that carries its slices (to a
// consumer, or from a Pull provider's agent) or asks an agent for them.
func workService(obj any) (key, bool) {
	w, ok := obj.(*workv1alpha1.Work)
	if !ok {
		return key{}, false
	}
	for _, l := range [][2]string{{NamespaceLabel, NameLabel}, {ImportNamespaceLabel, ImportNameLabel},
		{mcs.CollectedNamespaceLabel, mcs.CollectedNameLabel}, {mcs.ProviderNamespaceLabel, mcs.ProviderNameLabel}} {
		if w.Labels[l[1]] != "" {
			return key{w.Labels[l[0]], w.Labels[l[1]]}, true
		}
	}
	return key{}, false
}
