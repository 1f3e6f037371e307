package apiserver

import (
	apimachineryversion "k8s.io/apimachinery/pkg/version"
	basecompatibility "k8s.io/component-base/compatibility"
)

// KubernetesVersion is the Kubernetes API version mco-apiserver is
// compatible with, reported at /version so that kubectl can reason about it.
const KubernetesVersion = "1.37.2"

// kubeCompatibleVersion reports KubernetesVersion at /version whatever the
// build stamped into the Kubernetes libraries; mco's own version is printed
// by `mco-apiserver --version`.
type kubeCompatibleVersion struct {
	basecompatibility.EffectiveVersion
}

// NewEffectiveVersion returns the effective version of mco-apiserver.
func NewEffectiveVersion() basecompatibility.EffectiveVersion {
	return kubeCompatibleVersion{basecompatibility.NewEffectiveVersionFromString(KubernetesVersion, "", "")}
}

// Info is served at /version.
func (v kubeCompatibleVersion) Info() *apimachineryversion.Info {
	info := v.EffectiveVersion.Info()
	if info == nil {
		return nil
	}
	out := *info
	out.GitVersion = "v" + KubernetesVersion
	out.GitTreeState = "clean"
	return &out
}
