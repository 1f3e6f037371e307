package mcs

import (
	"maps"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/placement"
)

// PermanentID identifies a MultiClusterService on what it claims: its
// permanent-id label, else its UID.
func PermanentID(svc *networkingv1alpha1.MultiClusterService) string {
	if id := svc.Labels[networkingv1alpha1.MultiClusterServicePermanentIDLabel]; id != "" {
		return id
	}
	return string(svc.UID)
}

// ClaimedBy returns the namespace and name of the MultiClusterService that
// claims a Service or binding ("" when none does).
func ClaimedBy(obj metav1.Object) (namespace, name string) {
	a := obj.GetAnnotations()
	if obj.GetLabels()[networkingv1alpha1.ResourceTemplateClaimedByLabel] != networkingv1alpha1.MultiClusterServiceKind &&
		obj.GetLabels()[workv1alpha2.BindingManagedByLabel] != networkingv1alpha1.MultiClusterServiceKind {
		return "", ""
	}
	return a[networkingv1alpha1.MultiClusterServiceNamespaceAnnotation], a[networkingv1alpha1.MultiClusterServiceNameAnnotation]
}

// ClaimService marks a Service as propagated by svc, as Karmada does: any
// policy's claim goes, the claimed-by label, svc's permanent id and its
// name and namespace come. It reports change.
func ClaimService(obj metav1.Object, svc *networkingv1alpha1.MultiClusterService) bool {
	return claim(obj, svc, networkingv1alpha1.ResourceTemplateClaimedByLabel)
}

// ClaimBinding marks the Service's binding as kept by svc (managed-by
// label instead of claimed-by). It reports change.
func ClaimBinding(obj metav1.Object, svc *networkingv1alpha1.MultiClusterService) bool {
	return claim(obj, svc, workv1alpha2.BindingManagedByLabel)
}

// Release takes a MultiClusterService's marks off a Service or binding,
// for a policy to claim it again. It reports change.
func Release(obj metav1.Object) bool {
	labels, annotations := copyMap(obj.GetLabels()), copyMap(obj.GetAnnotations())
	for _, k := range []string{networkingv1alpha1.MultiClusterServicePermanentIDLabel, networkingv1alpha1.ResourceTemplateClaimedByLabel} {
		delete(labels, k)
	}
	if labels[workv1alpha2.BindingManagedByLabel] == networkingv1alpha1.MultiClusterServiceKind {
		delete(labels, workv1alpha2.BindingManagedByLabel)
	}
	delete(annotations, networkingv1alpha1.MultiClusterServiceNameAnnotation)
	delete(annotations, networkingv1alpha1.MultiClusterServiceNamespaceAnnotation)
	return set(obj, labels, annotations)
}

func claim(obj metav1.Object, svc *networkingv1alpha1.MultiClusterService, byLabel string) bool {
	labels, annotations := copyMap(obj.GetLabels()), copyMap(obj.GetAnnotations())
	placement.ClearPolicyClaim(labels, annotations)
	labels[byLabel] = networkingv1alpha1.MultiClusterServiceKind
	labels[networkingv1alpha1.MultiClusterServicePermanentIDLabel] = PermanentID(svc)
	annotations[networkingv1alpha1.MultiClusterServiceNameAnnotation] = svc.Name
	annotations[networkingv1alpha1.MultiClusterServiceNamespaceAnnotation] = svc.Namespace
	return set(obj, labels, annotations)
}

// set writes labels and annotations that differ and reports change.
func set(obj metav1.Object, labels, annotations map[string]string) bool {
	if maps.Equal(obj.GetLabels(), labels) && maps.Equal(obj.GetAnnotations(), annotations) {
		return false
	}
	obj.SetLabels(nilIfEmpty(labels))
	obj.SetAnnotations(nilIfEmpty(annotations))
	return true
}

func copyMap(in map[string]string) map[string]string {
	out := make(map[string]string, len(in)+4)
	maps.Copy(out, in)
	return out
}

func nilIfEmpty(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	return m
}
