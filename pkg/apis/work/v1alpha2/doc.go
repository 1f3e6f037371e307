// Package v1alpha2 holds the work.karmada.io/v1alpha2 API types, wire-compatible with Karmada's group of
// the same name. It holds ResourceBinding and ClusterResourceBinding.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.karmada.work.v1alpha2
// +groupName=work.karmada.io
package v1alpha2
