package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group served by this package.
const GroupName = "policy.karmada.io"

// SchemeGroupVersion is the group and version of every kind in this package.
var SchemeGroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}

var (
	// SchemeBuilder collects the functions that add this package's kinds to a scheme.
	SchemeBuilder = runtime.NewSchemeBuilder(addKnownTypes, addDefaultingFuncs)
	// AddToScheme adds this package's kinds to a scheme.
	AddToScheme = SchemeBuilder.AddToScheme
)

// Resource turns an unqualified resource name into a group-qualified one.
func Resource(resource string) schema.GroupResource {
	return SchemeGroupVersion.WithResource(resource).GroupResource()
}

func addKnownTypes(scheme *runtime.Scheme) error {
	scheme.AddKnownTypes(SchemeGroupVersion,
		&PropagationPolicy{},
		&PropagationPolicyList{},
		&ClusterPropagationPolicy{},
		&ClusterPropagationPolicyList{},
		&OverridePolicy{},
		&OverridePolicyList{},
		&ClusterOverridePolicy{},
		&ClusterOverridePolicyList{},
		&ClusterTaintPolicy{},
		&ClusterTaintPolicyList{},
		&FederatedResourceQuota{},
		&FederatedResourceQuotaList{},
	)
	metav1.AddToGroupVersion(scheme, SchemeGroupVersion)
	return nil
}
