package mcs

import (
	"crypto/sha256"
	"encoding/hex"

	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
)

// Karmada's marks of the EndpointSlices it makes.
const (
	// ManagedByDispatch is endpointslice.kubernetes.io/managed-by of the
	// slices a MultiClusterService gives its consumers.
	ManagedByDispatch = "endpointslice-dispatch-controller.karmada.io"
	// ManagedByImport is endpointslice.kubernetes.io/managed-by of the
	// slices collected for a ServiceExport (imported-<cluster>-<slice>).
	ManagedByImport = "endpointslice-controller.karmada.io"
	// ProvisionClusterAnnotation names the cluster a dispatched slice's
	// endpoints come from.
	ProvisionClusterAnnotation = "endpointslice.karmada.io/provision-cluster"
	// DerivedPrefix starts the name of the Service a ServiceImport
	// derives in its consumers.
	DerivedPrefix = "derived-"
	// ImportedPrefix starts the name of a slice collected for an export.
	ImportedPrefix = "imported-"
)

// ServiceOf returns the Service a slice belongs to ("" when unlabelled).
func ServiceOf(s *discoveryv1.EndpointSlice) string { return s.Labels[discoveryv1.LabelServiceName] }

// Own tells whether a member's slice is the member's own, not one mco
// (or Karmada) put there: only those are collected, so that a slice never
// travels back to where it came from.
func Own(s *discoveryv1.EndpointSlice) bool {
	switch s.Labels[discoveryv1.LabelManagedBy] {
	case ManagedByDispatch, ManagedByImport:
		return false
	}
	return ServiceOf(s) != ""
}

// Dispatched is the copy of provider's slice src that a MultiClusterService
// gives its consumers (and that mco keeps), attached to the consumers' own
// Service of the same name: named <provider>-<slice>, labelled with the
// Service and Karmada's dispatch controller, annotated with the provider;
// only the ports of the exposed ports when ports is not empty.
func Dispatched(provider string, src *discoveryv1.EndpointSlice, ports []networkingv1alpha1.ExposurePort) *discoveryv1.EndpointSlice {
	out := copyOf(src, name(provider+"-"+src.Name), ServiceOf(src), ManagedByDispatch)
	out.Annotations = map[string]string{ProvisionClusterAnnotation: provider}
	out.Ports = exposed(src.Ports, ports)
	return out
}

// Imported is mco's copy of a slice of an exported Service in cluster,
// attached to the Service a ServiceImport derives (derived-<service>):
// named imported-<cluster>-<slice>, as Karmada names it.
func Imported(cluster string, src *discoveryv1.EndpointSlice) *discoveryv1.EndpointSlice {
	out := copyOf(src, name(ImportedPrefix+cluster+"-"+src.Name), DerivedPrefix+ServiceOf(src), ManagedByImport)
	out.Annotations = map[string]string{ProvisionClusterAnnotation: cluster}
	return out
}

// copyOf is src under another name, with only the labels that attach it
// to service and say who manages it, and none of src's identity.
func copyOf(src *discoveryv1.EndpointSlice, name, service, managedBy string) *discoveryv1.EndpointSlice {
	return &discoveryv1.EndpointSlice{
		TypeMeta: metav1.TypeMeta{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice"},
		ObjectMeta: metav1.ObjectMeta{
			Name:      name,
			Namespace: src.Namespace,
			Labels:    map[string]string{discoveryv1.LabelServiceName: service, discoveryv1.LabelManagedBy: managedBy},
		},
		AddressType: src.AddressType,
		Endpoints:   append([]discoveryv1.Endpoint(nil), src.Endpoints...),
		Ports:       append([]discoveryv1.EndpointPort(nil), src.Ports...),
	}
}

// exposed keeps the ports of a slice that a MultiClusterService exposes,
// all when none is listed. They are matched by name: a slice's ports carry
// the Service port's name with the target port's number, so the Service
// port's number cannot be matched; an unnamed exposed port matches the
// unnamed port of a single-port Service.
func exposed(ports []discoveryv1.EndpointPort, want []networkingv1alpha1.ExposurePort) []discoveryv1.EndpointPort {
	if len(want) == 0 {
		return ports
	}
	names := map[string]bool{}
	for _, p := range want {
		names[p.Name] = true
	}
	var out []discoveryv1.EndpointPort
	for _, p := range ports {
		if names[ptrString(p.Name)] {
			out = append(out, p)
		}
	}
	return out
}

// name keeps a generated name within an object name's 253 characters: a
// longer one is cut and ends with a hash of the whole.
func name(n string) string {
	if len(n) <= validation.DNS1123SubdomainMaxLength {
		return n
	}
	sum := sha256.Sum256([]byte(n))
	suffix := "-" + hex.EncodeToString(sum[:])[:10]
	return n[:validation.DNS1123SubdomainMaxLength-len(suffix)] + suffix
}

func ptrString(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
