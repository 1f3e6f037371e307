package v1alpha2

// Marks bindings and the Works derived from them (Karmada's names).
const (
	// ResourceBindingNamespaceAnnotationKey and ResourceBindingNameAnnotationKey
	// name, on a Work, the ResourceBinding it was derived from.
	ResourceBindingNamespaceAnnotationKey = "resourcebinding.karmada.io/namespace"
	ResourceBindingNameAnnotationKey      = "resourcebinding.karmada.io/name"
	// ClusterResourceBindingAnnotationKey names the ClusterResourceBinding.
	ClusterResourceBindingAnnotationKey = "clusterresourcebinding.karmada.io/name"

	// BindingControllerFinalizer holds a ResourceBinding until its Works are
	// gone; ClusterResourceBindingControllerFinalizer does the same for a
	// ClusterResourceBinding.
	BindingControllerFinalizer                = "karmada.io/binding-controller"
	ClusterResourceBindingControllerFinalizer = "karmada.io/cluster-resource-binding-controller"
)
