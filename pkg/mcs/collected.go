package mcs

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	"github.com/mco-org/mco/pkg/names"
)

// Karmada's labels of the Works that carry a Pull member's own slices to
// mco (collected by its agent) and of the Works that tell the agent which
// MultiClusterServices it provides for.
const (
	// CollectedNamespaceLabel and CollectedNameLabel name the Service of
	// a collected slice.
	CollectedNamespaceLabel = "endpointslice.karmada.io/namespace"
	CollectedNameLabel      = "endpointslice.karmada.io/name"
	// CollectedManagedByLabel says why it is collected: ServiceExport,
	// MultiClusterService, or both joined by ".".
	CollectedManagedByLabel = "endpointslice.karmada.io/managed-by"
	// ProviderNamespaceLabel and ProviderNameLabel mark the Work, in a Pull
	// provider's execution space, that carries (never applied) a
	// MultiClusterService whose endpoints its agent collects.
	ProviderNamespaceLabel = "multiclusterservice.karmada.io/namespace"
	ProviderNameLabel      = "multiclusterservice.karmada.io/name"

	// ByExport and ByMCS are the owners in CollectedManagedByLabel.
	ByExport = "ServiceExport"
	ByMCS    = networkingv1alpha1.MultiClusterServiceKind
)

// NotForMember tells whether a Work only carries data between mco and an
// agent (a collected slice, a provider's MultiClusterService): never
// applied to the member, never withdrawn from it.
func NotForMember(w *workv1alpha1.Work) bool {
	return w.Labels[CollectedManagedByLabel] != "" || w.Labels[ProviderNameLabel] != ""
}

// CollectedWork is the Work by which cluster's agent reports its own slice
// s of a Service to mco, for owners (ServiceExport, MultiClusterService).
func CollectedWork(cluster string, s *discoveryv1.EndpointSlice, owners []string) (*workv1alpha1.Work, error) {
	own := s.DeepCopy()
	own.TypeMeta = metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"}
	own.ObjectMeta = metav1.ObjectMeta{Namespace: s.Namespace, Name: s.Name, Labels: s.Labels}
	raw, err := json.Marshal(own)
	if err != nil {
		return nil, fmt.Errorf("encode EndpointSlice %s/%s: %w", s.Namespace, s.Name, err)
	}
	sorted := append([]string(nil), owners...)
	sort.Strings(sorted)
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: names.ExecutionSpace(cluster),
			Name:      names.Work("EndpointSlice", s.Name, s.Namespace),
			Labels: map[string]string{CollectedNamespaceLabel: s.Namespace, CollectedNameLabel: ServiceOf(s),
				CollectedManagedByLabel: strings.Join(sorted, ".")},
		},
		Spec: workv1alpha1.WorkSpec{
			SuspendDispatching: ptr.To(true),
			Workload:           workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: raw}}}},
		},
	}, nil
}

// IsCollected tells whether a Work is one an agent may write: a collected
// slice, never dispatched, carrying EndpointSlices only.
func IsCollected(w *workv1alpha1.Work) bool {
	if w.Labels[CollectedManagedByLabel] == "" || w.Labels[CollectedNameLabel] == "" || w.Spec.SuspendDispatching == nil || !*w.Spec.SuspendDispatching {
		return false
	}
	for _, m := range w.Spec.Workload.Manifests {
		var t metav1.TypeMeta
		if json.Unmarshal(m.Raw, &t) != nil || t.APIVersion != "discovery.k8s.io/v1" || t.Kind != "EndpointSlice" {
			return false
		}
	}
	return len(w.Spec.Workload.Manifests) > 0
}

// CollectedSlices decodes the slices of collected Works.
func CollectedSlices(works []*workv1alpha1.Work) ([]*discoveryv1.EndpointSlice, error) {
	var out []*discoveryv1.EndpointSlice
	for _, w := range works {
		if !IsCollected(w) {
			continue
		}
		for _, m := range w.Spec.Workload.Manifests {
			s := &discoveryv1.EndpointSlice{}
			if err := json.Unmarshal(m.Raw, s); err != nil {
				return nil, fmt.Errorf("decode the slice in work %s/%s: %w", w.Namespace, w.Name, err)
			}
			out = append(out, s)
		}
	}
	return out, nil
}

// ProviderWork is the Work that tells a Pull provider's agent to collect
// the endpoints of svc: it carries svc and is never applied.
func ProviderWork(cluster string, svc *networkingv1alpha1.MultiClusterService) (*workv1alpha1.Work, error) {
	obj := svc.DeepCopy()
	obj.TypeMeta = metav1.TypeMeta{APIVersion: networkingv1alpha1.SchemeGroupVersion.String(), Kind: networkingv1alpha1.MultiClusterServiceKind}
	obj.ObjectMeta = metav1.ObjectMeta{Namespace: svc.Namespace, Name: svc.Name}
	obj.Status = corev1.ServiceStatus{}
	raw, err := json.Marshal(obj)
	if err != nil {
		return nil, fmt.Errorf("encode MultiClusterService %s/%s: %w", svc.Namespace, svc.Name, err)
	}
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{
			Namespace: names.ExecutionSpace(cluster),
			Name:      names.Work(networkingv1alpha1.MultiClusterServiceKind, svc.Name, svc.Namespace),
			Labels:    map[string]string{ProviderNamespaceLabel: svc.Namespace, ProviderNameLabel: svc.Name},
		},
		Spec: workv1alpha1.WorkSpec{
			SuspendDispatching: ptr.To(true),
			Workload:           workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{{RawExtension: runtime.RawExtension{Raw: raw}}}},
		},
	}, nil
}
