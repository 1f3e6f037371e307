package placement

import policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"

// ClearPolicyClaim deletes from an object's labels and annotations every
// key by which a PropagationPolicy or ClusterPropagationPolicy claims it.
func ClearPolicyClaim(labels, annotations map[string]string) {
	delete(labels, policyv1alpha1.PropagationPolicyPermanentIDLabel)
	delete(labels, policyv1alpha1.ClusterPropagationPolicyPermanentIDLabel)
	delete(annotations, policyv1alpha1.PropagationPolicyNamespaceAnnotation)
	delete(annotations, policyv1alpha1.PropagationPolicyNameAnnotation)
	delete(annotations, policyv1alpha1.ClusterPropagationPolicyAnnotation)
}
