/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package defaults

import (
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// serviceAccountTokenExpirationSeconds is the lifetime requested for a
// projected service account token when the manifest does not say.
const serviceAccountTokenExpirationSeconds int64 = 60 * 60

// PodTemplateSpec defaults a pod template of a long-running workload
// (Deployment, StatefulSet, DaemonSet, ReplicaSet): restartPolicy becomes
// Always when unset.
func PodTemplateSpec(t *corev1.PodTemplateSpec) {
	podSpec(&t.Spec, true)
}

// podSpec defaults spec. restartAlways says whether an empty restartPolicy
// becomes Always; Job templates pass false because Always is not allowed
// there and the user has to choose.
func podSpec(spec *corev1.PodSpec, restartAlways bool) {
	if restartAlways && spec.RestartPolicy == "" {
		spec.RestartPolicy = corev1.RestartPolicyAlways
	}
	if spec.TerminationGracePeriodSeconds == nil {
		spec.TerminationGracePeriodSeconds = ptr.To[int64](corev1.DefaultTerminationGracePeriodSeconds)
	}
	if spec.DNSPolicy == "" {
		spec.DNSPolicy = corev1.DNSClusterFirst
	}
	if spec.SchedulerName == "" {
		spec.SchedulerName = corev1.DefaultSchedulerName
	}
	if spec.SecurityContext == nil {
		spec.SecurityContext = &corev1.PodSecurityContext{}
	}
	// serviceAccount is the old spelling of serviceAccountName; a cluster
	// reads either and always writes both.
	if spec.ServiceAccountName == "" {
		spec.ServiceAccountName = spec.DeprecatedServiceAccount
	}
	spec.DeprecatedServiceAccount = spec.ServiceAccountName

	for i := range spec.Volumes {
		volume(&spec.Volumes[i])
	}
	for i := range spec.InitContainers {
		container(&spec.InitContainers[i], spec.HostNetwork)
	}
	for i := range spec.Containers {
		container(&spec.Containers[i], spec.HostNetwork)
	}
}

// container defaults one container or init container. With host networking
// a port's hostPort is the containerPort unless given.
func container(c *corev1.Container, hostNetwork bool) {
	if c.ImagePullPolicy == "" {
		c.ImagePullPolicy = pullPolicyFor(c.Image)
	}
	if c.TerminationMessagePath == "" {
		c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	}
	if c.TerminationMessagePolicy == "" {
		c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	}
	for i := range c.Ports {
		p := &c.Ports[i]
		if p.Protocol == "" {
			p.Protocol = corev1.ProtocolTCP
		}
		if hostNetwork && p.HostPort == 0 {
			p.HostPort = p.ContainerPort
		}
	}
	for i := range c.Env {
		if from := c.Env[i].ValueFrom; from != nil {
			fieldRef(from.FieldRef)
		}
	}
	probe(c.LivenessProbe)
	probe(c.ReadinessProbe)
	probe(c.StartupProbe)
	if c.Lifecycle != nil {
		lifecycleHandler(c.Lifecycle.PostStart)
		lifecycleHandler(c.Lifecycle.PreStop)
	}
}

// pullPolicyFor picks the pull policy a cluster uses for image when none is
// given: Always for a ":latest" tag or for a reference with neither tag nor
// digest, IfNotPresent for anything pinned. An empty image is not a valid
// reference and gets IfNotPresent, as on a cluster.
func pullPolicyFor(image string) corev1.PullPolicy {
	if image == "" {
		return corev1.PullIfNotPresent
	}
	name, hasDigest := image, false
	if at := strings.IndexByte(name, '@'); at >= 0 {
		name, hasDigest = name[:at], true
	}
	tag := ""
	// A colon before the last slash belongs to a registry host:port.
	if colon := strings.LastIndexByte(name, ':'); colon > strings.LastIndexByte(name, '/') {
		tag = name[colon+1:]
	}
	if tag == "latest" || (tag == "" && !hasDigest) {
		return corev1.PullAlways
	}
	return corev1.PullIfNotPresent
}

// probe fills the timing fields of a probe that is set.
func probe(p *corev1.Probe) {
	if p == nil {
		return
	}
	if p.TimeoutSeconds == 0 {
		p.TimeoutSeconds = 1
	}
	if p.PeriodSeconds == 0 {
		p.PeriodSeconds = 10
	}
	if p.SuccessThreshold == 0 {
		p.SuccessThreshold = 1
	}
	if p.FailureThreshold == 0 {
		p.FailureThreshold = 3
	}
	httpGet(p.HTTPGet)
}

func lifecycleHandler(h *corev1.LifecycleHandler) {
	if h != nil {
		httpGet(h.HTTPGet)
	}
}

// httpGet defaults an HTTP GET action to "/" over plain HTTP.
func httpGet(a *corev1.HTTPGetAction) {
	if a == nil {
		return
	}
	if a.Path == "" {
		a.Path = "/"
	}
	if a.Scheme == "" {
		a.Scheme = corev1.URISchemeHTTP
	}
}

// fieldRef defaults the API version a downward API field path is read in.
func fieldRef(f *corev1.ObjectFieldSelector) {
	if f != nil && f.APIVersion == "" {
		f.APIVersion = "v1"
	}
}
