// Package kubeapis serves the API groups mco-apiserver takes whole from
// Kubernetes' own REST storage providers (k8s.io/kubernetes/pkg/registry/
// <group>/rest): every built-in group outside core/v1, apps, batch and
// coordination.k8s.io, which stay in pkg/builtin. Among them are
// rbac.authorization.k8s.io (Roles and bindings, with kube-apiserver's
// escalation checks), authorization.k8s.io (the access reviews behind
// `kubectl auth can-i`), authentication.k8s.io (TokenReview and
// SelfSubjectReview, behind `kubectl auth whoami`), and the groups whose
// kinds are templates: autoscaling, policy, networking, storage,
// scheduling, node, admissionregistration, flowcontrol and events.k8s.io.
// It also builds the RBAC authorizer, reconciles the bootstrap roles at
// every start and keeps the aggregated ClusterRoles filled, as
// kube-apiserver and kube-controller-manager do.
package kubeapis
