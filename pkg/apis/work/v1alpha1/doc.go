// Package v1alpha1 holds the work.karmada.io/v1alpha1 API types, wire-compatible with Karmada's group of
// the same name. Only Work is served from this version; its deprecated ResourceBinding is not.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.karmada.work.v1alpha1
// +groupName=work.karmada.io
package v1alpha1
