// Package v1alpha1 holds the cluster.karmada.io/v1alpha1 API types, wire-compatible with Karmada's group of
// the same name. It holds the Cluster kind that represents a member cluster.
//
// +k8s:deepcopy-gen=package
// +k8s:openapi-gen=true
// +k8s:openapi-model-package=io.karmada.cluster.v1alpha1
// +groupName=cluster.karmada.io
package v1alpha1
