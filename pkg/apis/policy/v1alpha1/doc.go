// Package v1alpha1 holds the policy.karmada.io/v1alpha1 API types, wire-compatible with Karmada's group of
// the same name. It holds the propagation, override and cluster taint policies.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.karmada.policy.v1alpha1
// +groupName=policy.karmada.io
package v1alpha1
