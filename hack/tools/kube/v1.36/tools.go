//go:build tools

// Package tools pins the Kubernetes v1.36 member binaries (kube-apiserver,
// kube-controller-manager, kube-scheduler) that hack/build-tools.sh builds
// for members of that version (MEMBER_VERSIONS): each version is built
// from its own modules, never from mco's own Kubernetes release.
package tools

import (
	_ "k8s.io/kubernetes/cmd/kube-apiserver"
	_ "k8s.io/kubernetes/cmd/kube-controller-manager"
	_ "k8s.io/kubernetes/cmd/kube-scheduler"
)
