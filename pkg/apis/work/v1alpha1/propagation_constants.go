package v1alpha1

// Marks the propagation path leaves on Works and on the objects it applies
// in member clusters (Karmada's names).
const (
	// WorkNamespaceAnnotation and WorkNameAnnotation name, on an object in a
	// member cluster, the Work it was applied from.
	WorkNamespaceAnnotation = "work.karmada.io/namespace"
	WorkNameAnnotation      = "work.karmada.io/name"

	// ExecutionControllerFinalizer holds a Work until its objects are
	// withdrawn from the member cluster.
	ExecutionControllerFinalizer = "karmada.io/execution-controller"

	// ResourceTemplateUIDAnnotation names the template a manifest came from.
	ResourceTemplateUIDAnnotation = "resourcetemplate.karmada.io/uid"
	// ResourceTemplateGenerationAnnotation is the template's generation a
	// manifest was rendered from; status aggregation compares it.
	ResourceTemplateGenerationAnnotation = "resourcetemplate.karmada.io/generation"
	// ManagedLabels and ManagedAnnotations list (sorted, comma-separated) the
	// keys that came from the template.
	ManagedLabels      = "resourcetemplate.karmada.io/managed-labels"
	ManagedAnnotations = "resourcetemplate.karmada.io/managed-annotations"

	// ResourceConflictResolutionAnnotation carries, on a manifest, how to
	// treat an object that already exists in the member: overwrite or abort.
	ResourceConflictResolutionAnnotation = "work.karmada.io/conflict-resolution"
	ResourceConflictResolutionOverwrite  = "overwrite"
	ResourceConflictResolutionAbort      = "abort"
)
