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
	"testing"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/diff"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func TestPullPolicyFor(t *testing.T) {
	t.Parallel()
	cases := []struct {
		image string
		want  corev1.PullPolicy
	}{
		{"nginx", corev1.PullAlways},
		{"nginx:latest", corev1.PullAlways},
		{"nginx:1.27", corev1.PullIfNotPresent},
		{"registry.example.com:5000/team/nginx", corev1.PullAlways},
		{"registry.example.com:5000/team/nginx:1.27", corev1.PullIfNotPresent},
		{"nginx@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", corev1.PullIfNotPresent},
		{"nginx:1.27@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", corev1.PullIfNotPresent},
		{"nginx:latest@sha256:0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef", corev1.PullAlways},
		{"", corev1.PullIfNotPresent},
	}
	for _, tc := range cases {
		t.Run("The image "+tc.image+" is pulled "+string(tc.want)+".", func(t *testing.T) {
			t.Parallel()
			if got := pullPolicyFor(tc.image); got != tc.want {
				t.Fatalf("pullPolicyFor(%q) = %s, want %s", tc.image, got, tc.want)
			}
		})
	}
}

// assertPodSpec defaults a long-running template with the given spec and
// checks the spec that comes out, and that a second pass changes nothing.
func assertPodSpec(t *testing.T, in, want corev1.PodSpec) {
	t.Helper()
	tmpl := (&corev1.PodTemplateSpec{Spec: in}).DeepCopy()
	PodTemplateSpec(tmpl)
	if !apiequality.Semantic.DeepEqual(tmpl.Spec, want) {
		t.Fatalf("(-got +want):\n%s", diff.Diff(tmpl.Spec, want))
	}
	again := tmpl.DeepCopy()
	PodTemplateSpec(again)
	if !apiequality.Semantic.DeepEqual(again, tmpl) {
		t.Fatalf("defaulting twice changed the template:\n%s", diff.Diff(tmpl, again))
	}
}

// podLevel returns want with the pod-level defaults of a long-running pod.
func podLevel(want corev1.PodSpec) corev1.PodSpec {
	want.RestartPolicy = corev1.RestartPolicyAlways
	want.TerminationGracePeriodSeconds = ptr.To[int64](30)
	want.DNSPolicy = corev1.DNSClusterFirst
	want.SchedulerName = corev1.DefaultSchedulerName
	if want.SecurityContext == nil {
		want.SecurityContext = &corev1.PodSecurityContext{}
	}
	return want
}

// defaultedContainer is c with the container-level defaults for a pinned
// image.
func defaultedContainer(c corev1.Container) corev1.Container {
	c.ImagePullPolicy = corev1.PullIfNotPresent
	c.TerminationMessagePath = corev1.TerminationMessagePathDefault
	c.TerminationMessagePolicy = corev1.TerminationMessageReadFile
	return c
}

func TestPodSpecDefaults(t *testing.T) {
	t.Parallel()
	probe := func(h corev1.ProbeHandler) *corev1.Probe { return &corev1.Probe{ProbeHandler: h} }
	timed := func(h corev1.ProbeHandler) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: h, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	}
	httpIn := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromString("http")}}
	httpOut := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromString("http"), Path: "/", Scheme: corev1.URISchemeHTTP}}
	tcp := corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}}

	cases := []struct {
		name     string
		in, want corev1.PodSpec
	}{
		{name: "Ports default to TCP, probes get their timings and HTTP probes a path and scheme.",
			in: corev1.PodSpec{Containers: []corev1.Container{{
				Name: "web", Image: "nginx:1.27",
				Ports:          []corev1.ContainerPort{{ContainerPort: 80}, {ContainerPort: 53, Protocol: corev1.ProtocolUDP}},
				LivenessProbe:  probe(httpIn),
				ReadinessProbe: &corev1.Probe{ProbeHandler: tcp, PeriodSeconds: 5, FailureThreshold: 1},
				StartupProbe:   probe(tcp),
			}}},
			want: podLevel(corev1.PodSpec{Containers: []corev1.Container{defaultedContainer(corev1.Container{
				Name: "web", Image: "nginx:1.27",
				Ports:          []corev1.ContainerPort{{ContainerPort: 80, Protocol: corev1.ProtocolTCP}, {ContainerPort: 53, Protocol: corev1.ProtocolUDP}},
				LivenessProbe:  timed(httpOut),
				ReadinessProbe: &corev1.Probe{ProbeHandler: tcp, TimeoutSeconds: 1, PeriodSeconds: 5, SuccessThreshold: 1, FailureThreshold: 1},
				StartupProbe:   timed(tcp),
			})}})},
		{name: "Init containers are defaulted like containers, and lifecycle hooks get HTTP defaults.",
			in: corev1.PodSpec{
				InitContainers: []corev1.Container{{Name: "init", Image: "busybox"}},
				Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27",
					Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt32(80)}}}}},
			},
			want: podLevel(corev1.PodSpec{
				InitContainers: []corev1.Container{{Name: "init", Image: "busybox", ImagePullPolicy: corev1.PullAlways,
					TerminationMessagePath: corev1.TerminationMessagePathDefault, TerminationMessagePolicy: corev1.TerminationMessageReadFile}},
				Containers: []corev1.Container{defaultedContainer(corev1.Container{Name: "web", Image: "nginx:1.27",
					Lifecycle: &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{HTTPGet: &corev1.HTTPGetAction{
						Port: intstr.FromInt32(80), Path: "/", Scheme: corev1.URISchemeHTTP}}}})},
			})},
		{name: "A field reference in the environment is read in API version v1.",
			in: corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27", Env: []corev1.EnvVar{
				{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}},
				{Name: "PLAIN", Value: "x"},
			}}}},
			want: podLevel(corev1.PodSpec{Containers: []corev1.Container{defaultedContainer(corev1.Container{Name: "web", Image: "nginx:1.27", Env: []corev1.EnvVar{
				{Name: "POD", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.name"}}},
				{Name: "PLAIN", Value: "x"},
			}})}})},
		{name: "With host networking a port's hostPort is its containerPort.",
			in: corev1.PodSpec{HostNetwork: true, Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27",
				Ports: []corev1.ContainerPort{{ContainerPort: 80}, {ContainerPort: 81, HostPort: 8081}}}}},
			want: podLevel(corev1.PodSpec{HostNetwork: true, Containers: []corev1.Container{defaultedContainer(corev1.Container{Name: "web", Image: "nginx:1.27",
				Ports: []corev1.ContainerPort{{ContainerPort: 80, HostPort: 80, Protocol: corev1.ProtocolTCP}, {ContainerPort: 81, HostPort: 8081, Protocol: corev1.ProtocolTCP}}})}})},
		{name: "The deprecated serviceAccount fills serviceAccountName and is kept in step with it.",
			in:   corev1.PodSpec{DeprecatedServiceAccount: "robot", Containers: []corev1.Container{{Name: "web", Image: "nginx:1.27"}}},
			want: podLevel(corev1.PodSpec{DeprecatedServiceAccount: "robot", ServiceAccountName: "robot", Containers: []corev1.Container{defaultedContainer(corev1.Container{Name: "web", Image: "nginx:1.27"})}})},
		{name: "Values the user chose are kept.",
			in: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: ptr.To[int64](5),
				DNSPolicy: corev1.DNSDefault, SchedulerName: "custom", ServiceAccountName: "robot",
				SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true)},
				Containers: []corev1.Container{{Name: "web", Image: "nginx", ImagePullPolicy: corev1.PullNever,
					TerminationMessagePath: "/tmp/msg", TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError}},
			},
			want: corev1.PodSpec{
				RestartPolicy: corev1.RestartPolicyAlways, TerminationGracePeriodSeconds: ptr.To[int64](5),
				DNSPolicy: corev1.DNSDefault, SchedulerName: "custom", ServiceAccountName: "robot", DeprecatedServiceAccount: "robot",
				SecurityContext: &corev1.PodSecurityContext{RunAsNonRoot: ptr.To(true)},
				Containers: []corev1.Container{{Name: "web", Image: "nginx", ImagePullPolicy: corev1.PullNever,
					TerminationMessagePath: "/tmp/msg", TerminationMessagePolicy: corev1.TerminationMessageFallbackToLogsOnError}},
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertPodSpec(t, tc.in, tc.want)
		})
	}
}

func TestVolumeDefaults(t *testing.T) {
	t.Parallel()
	mode := ptr.To[int32](0o644)
	field := &corev1.ObjectFieldSelector{FieldPath: "metadata.labels"}
	fieldV1 := &corev1.ObjectFieldSelector{APIVersion: "v1", FieldPath: "metadata.labels"}
	claim := &corev1.PersistentVolumeClaimTemplate{Spec: corev1.PersistentVolumeClaimSpec{
		AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce},
		Resources:   corev1.VolumeResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("1Gi")}},
	}}
	claimOut := claim.DeepCopy()
	claimOut.Spec.VolumeMode = ptr.To(corev1.PersistentVolumeFilesystem)
	cases := []struct {
		name     string
		in, want corev1.VolumeSource
	}{
		{name: "A volume without a source is an emptyDir.",
			in: corev1.VolumeSource{}, want: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}},
		{name: "Secret volumes get mode 0644.",
			in:   corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s"}},
			want: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s", DefaultMode: mode}}},
		{name: "ConfigMap volumes get mode 0644 but keep a mode the user chose.",
			in:   corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{DefaultMode: ptr.To[int32](0o400)}},
			want: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{DefaultMode: ptr.To[int32](0o400)}}},
		{name: "Downward API volumes get mode 0644 and v1 field references.",
			in:   corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{Items: []corev1.DownwardAPIVolumeFile{{Path: "l", FieldRef: field}}}},
			want: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{DefaultMode: mode, Items: []corev1.DownwardAPIVolumeFile{{Path: "l", FieldRef: fieldV1}}}}},
		{name: "Projected volumes get mode 0644, one hour tokens and v1 field references.",
			in: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token"}},
				{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "l", FieldRef: field}}}},
			}}},
			want: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: mode, Sources: []corev1.VolumeProjection{
				{ServiceAccountToken: &corev1.ServiceAccountTokenProjection{Path: "token", ExpirationSeconds: ptr.To[int64](3600)}},
				{DownwardAPI: &corev1.DownwardAPIProjection{Items: []corev1.DownwardAPIVolumeFile{{Path: "l", FieldRef: fieldV1}}}},
			}}}},
		{name: "Host paths get the unchecked type.",
			in:   corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log"}},
			want: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log", Type: ptr.To(corev1.HostPathUnset)}}},
		{name: "Ephemeral claim templates ask for a filesystem.",
			in:   corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: claim}},
			want: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{VolumeClaimTemplate: claimOut}}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := []corev1.Container{{Name: "web", Image: "nginx:1.27"}}
			in := corev1.PodSpec{Containers: c, Volumes: []corev1.Volume{{Name: "v", VolumeSource: tc.in}}}
			want := podLevel(corev1.PodSpec{
				Containers: []corev1.Container{defaultedContainer(c[0])},
				Volumes:    []corev1.Volume{{Name: "v", VolumeSource: tc.want}},
			})
			assertPodSpec(t, in, want)
		})
	}
}
