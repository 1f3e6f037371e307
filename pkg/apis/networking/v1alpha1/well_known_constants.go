package v1alpha1

// Keys a MultiClusterService writes on the Service it propagates and on
// that Service's ResourceBinding, as Karmada writes them.
const (
	// MultiClusterServicePermanentIDLabel identifies a MultiClusterService
	// (its UID unless set) on the Service and binding it claims.
	MultiClusterServicePermanentIDLabel = "multiclusterservice.karmada.io/permanent-id"
	// MultiClusterServiceNameAnnotation names the claiming
	// MultiClusterService on its Service and binding.
	MultiClusterServiceNameAnnotation = "multiclusterservice.karmada.io/name"
	// MultiClusterServiceNamespaceAnnotation is that MultiClusterService's
	// namespace.
	MultiClusterServiceNamespaceAnnotation = "multiclusterservice.karmada.io/namespace"
	// ResourceTemplateClaimedByLabel marks a resource template that an
	// object other than a propagation policy propagates; no policy claims
	// it while it is set.
	ResourceTemplateClaimedByLabel = "resourcetemplate.karmada.io/claimed-by"
	// MultiClusterServiceKind is the value of the claimed-by label and of
	// the binding's managed-by label (work/v1alpha2.BindingManagedByLabel).
	MultiClusterServiceKind = "MultiClusterService"
)
