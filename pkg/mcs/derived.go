package mcs

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// The MCS API kinds (sigs.k8s.io/mcs-api), at any of its versions
// (Karmada's v1alpha1, the API's v1beta1: the same schema).
var (
	ServiceExportGK = schema.GroupKind{Group: "multicluster.x-k8s.io", Kind: "ServiceExport"}
	ServiceImportGK = schema.GroupKind{Group: "multicluster.x-k8s.io", Kind: "ServiceImport"}
)

// importPort is a ServiceImport's port (spec.ports[]).
type importPort struct {
	Name        string          `json:"name,omitempty"`
	Protocol    corev1.Protocol `json:"protocol,omitempty"`
	AppProtocol *string         `json:"appProtocol,omitempty"`
	Port        int32           `json:"port"`
}

// importSpec is what the derived Service needs of a ServiceImport.
type importSpec struct {
	Type  string       `json:"type"`
	Ports []importPort `json:"ports"`
}

// DerivedService is the Service a ServiceImport derives on mco, as Karmada
// derives it: derived-<name>, ClusterIP, the import's ports, no selector
// (its endpoints are the imported slices). ok is false for a Headless
// import, which gets no Service.
func DerivedService(imp *unstructured.Unstructured) (svc *corev1.Service, ok bool, err error) {
	raw, _, err := unstructured.NestedMap(imp.Object, "spec")
	if err != nil {
		return nil, false, fmt.Errorf("ServiceImport %s/%s: %w", imp.GetNamespace(), imp.GetName(), err)
	}
	var spec importSpec
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &spec); err != nil {
		return nil, false, fmt.Errorf("ServiceImport %s/%s: %w", imp.GetNamespace(), imp.GetName(), err)
	}
	if spec.Type != "ClusterSetIP" {
		return nil, false, nil
	}
	svc = &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: imp.GetNamespace(), Name: DerivedPrefix + imp.GetName(),
			OwnerReferences: []metav1.OwnerReference{ImportOwner(imp)}},
		Spec: corev1.ServiceSpec{Type: corev1.ServiceTypeClusterIP},
	}
	for _, p := range spec.Ports {
		svc.Spec.Ports = append(svc.Spec.Ports, corev1.ServicePort{Name: p.Name, Protocol: p.Protocol, AppProtocol: p.AppProtocol, Port: p.Port})
	}
	return svc, true, nil
}

// ImportOwner is the owner reference of a ServiceImport's derived Service,
// by which mco knows the Service is its own to delete (a Service named
// derived-<name> that a user made is left alone). Owner references are
// not propagated to members.
func ImportOwner(imp *unstructured.Unstructured) metav1.OwnerReference {
	return metav1.OwnerReference{APIVersion: imp.GetAPIVersion(), Kind: imp.GetKind(), Name: imp.GetName(), UID: imp.GetUID()}
}

// DerivedBy tells whether a derived Service is the one the ServiceImport
// name derived.
func DerivedBy(svc metav1.Object, name string) bool {
	for _, o := range svc.GetOwnerReferences() {
		if o.Kind == ServiceImportGK.Kind && o.Name == name && strings.HasPrefix(o.APIVersion, ServiceImportGK.Group+"/") {
			return true
		}
	}
	return false
}

// ImportClusters is a ServiceImport's status.clusters: the clusters whose
// endpoints it imports.
func ImportClusters(exporters []string) []any {
	out := make([]any, 0, len(exporters))
	for _, c := range exporters {
		out = append(out, map[string]any{"cluster": c})
	}
	return out
}

// ImportDependencies are what a ServiceImport propagates with it, as
// Karmada's default interpreter says: its derived Service and the slices
// attached to it (mco dispatches those itself, see the README).
func ImportDependencies(imp *unstructured.Unstructured) []configv1alpha1.DependentObjectReference {
	derived := DerivedPrefix + imp.GetName()
	return []configv1alpha1.DependentObjectReference{
		{APIVersion: "v1", Kind: "Service", Namespace: imp.GetNamespace(), Name: derived},
		{APIVersion: "discovery.k8s.io/v1", Kind: "EndpointSlice", Namespace: imp.GetNamespace(),
			LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"kubernetes.io/service-name": derived}}},
	}
}
