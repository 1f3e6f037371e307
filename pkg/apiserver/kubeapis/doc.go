// Package kubeapis serves the API groups mco-apiserver takes from
// Kubernetes itself, through k8s.io/kubernetes's own storage and rules:
// rbac.authorization.k8s.io (Roles and bindings, with kube-apiserver's
// escalation checks), authorization.k8s.io (the access reviews behind
// `kubectl auth can-i`) and authentication.k8s.io (TokenReview and
// SelfSubjectReview, behind `kubectl auth whoami`). It also builds the RBAC
// authorizer, reconciles the bootstrap roles at every start and keeps the
// aggregated ClusterRoles filled, as kube-apiserver and
// kube-controller-manager do.
package kubeapis
