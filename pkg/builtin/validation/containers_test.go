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

package validation

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

const ctrPath = podSpecPath + ".containers[0]"

func ctr(d *appsv1.Deployment) *corev1.Container { return &d.Spec.Template.Spec.Containers[0] }

// sidecar returns a defaulted second container named name.
func sidecar(name string) corev1.Container {
	return corev1.Container{Name: name, Image: "busybox:1.36", ImagePullPolicy: corev1.PullIfNotPresent,
		TerminationMessagePath: "/dev/termination-log", TerminationMessagePolicy: corev1.TerminationMessageReadFile}
}

func TestValidateContainer(t *testing.T) {
	t.Parallel()
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "A container without a name is rejected.", mutate: func(d *appsv1.Deployment) { ctr(d).Name = "" },
			want: []wantErr{required(ctrPath + ".name")}},
		{name: "A container name that is not a DNS label is invalid.", mutate: func(d *appsv1.Deployment) { ctr(d).Name = "Web_1" },
			want: []wantErr{invalid(ctrPath + ".name")}},
		{name: "Two containers with the same name are duplicates.", mutate: func(d *appsv1.Deployment) {
			pod(d).Containers = append(pod(d).Containers, sidecar("web"))
		}, want: []wantErr{duplicate(podSpecPath + ".containers[1].name")}},
		{name: "A container named like an init container is a duplicate.", mutate: func(d *appsv1.Deployment) {
			pod(d).InitContainers = []corev1.Container{sidecar("web")}
		}, want: []wantErr{duplicate(ctrPath + ".name")}},
		{name: "A container without an image is rejected.", mutate: func(d *appsv1.Deployment) { ctr(d).Image = "" },
			want: []wantErr{required(ctrPath + ".image")}},
		{name: "An image with surrounding whitespace is invalid.", mutate: func(d *appsv1.Deployment) { ctr(d).Image = " nginx" },
			want: []wantErr{invalid(ctrPath + ".image")}},
		{name: "An unknown imagePullPolicy is not supported.", mutate: func(d *appsv1.Deployment) { ctr(d).ImagePullPolicy = "Sometimes" },
			want: []wantErr{notSupported(ctrPath + ".imagePullPolicy")}},
		{name: "An unknown terminationMessagePolicy is not supported.", mutate: func(d *appsv1.Deployment) { ctr(d).TerminationMessagePolicy = "Log" },
			want: []wantErr{notSupported(ctrPath + ".terminationMessagePolicy")}},
		{name: "An unknown container restartPolicy is not supported.", mutate: func(d *appsv1.Deployment) {
			ctr(d).RestartPolicy = ptr.To[corev1.ContainerRestartPolicy]("Sometimes")
		}, want: []wantErr{notSupported(ctrPath + ".restartPolicy")}},
	})
}

func TestValidateContainerPorts(t *testing.T) {
	t.Parallel()
	const p = ctrPath + ".ports"
	ports := func(ps ...corev1.ContainerPort) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) { ctr(d).Ports = ps }
	}
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "Named TCP, UDP and SCTP ports with a host port are valid.", mutate: ports(
			corev1.ContainerPort{Name: "http", ContainerPort: 80, HostPort: 8080, Protocol: corev1.ProtocolTCP},
			corev1.ContainerPort{Name: "dns", ContainerPort: 53, Protocol: corev1.ProtocolUDP},
			corev1.ContainerPort{ContainerPort: 9, Protocol: corev1.ProtocolSCTP})},
		{name: "A port without a number is rejected.", mutate: ports(corev1.ContainerPort{Protocol: corev1.ProtocolTCP}),
			want: []wantErr{required(p + "[0].containerPort")}},
		{name: "Port numbers above 65535 are invalid, for the container and the host.", mutate: ports(
			corev1.ContainerPort{ContainerPort: 70000, HostPort: -1, Protocol: corev1.ProtocolTCP}),
			want: []wantErr{invalid(p + "[0].containerPort"), invalid(p + "[0].hostPort")}},
		{name: "An HTTP protocol is not supported.", mutate: ports(corev1.ContainerPort{ContainerPort: 80, Protocol: "HTTP"}),
			want: []wantErr{notSupported(p + "[0].protocol")}},
		{name: "A port without a protocol is rejected once defaulting is past.", mutate: ports(corev1.ContainerPort{ContainerPort: 80}),
			want: []wantErr{required(p + "[0].protocol")}},
		{name: "A port name longer than 15 characters is invalid.", mutate: ports(
			corev1.ContainerPort{Name: "a-very-long-port-name", ContainerPort: 80, Protocol: corev1.ProtocolTCP}),
			want: []wantErr{invalid(p + "[0].name")}},
		{name: "Two ports of one container with the same name are duplicates.", mutate: ports(
			corev1.ContainerPort{Name: "http", ContainerPort: 80, Protocol: corev1.ProtocolTCP},
			corev1.ContainerPort{Name: "http", ContainerPort: 81, Protocol: corev1.ProtocolTCP}),
			want: []wantErr{duplicate(p + "[1].name")}},
	})
}

func TestValidateContainerEnv(t *testing.T) {
	t.Parallel()
	const p = ctrPath + ".env[0]"
	env := func(ev corev1.EnvVar) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) { ctr(d).Env = []corev1.EnvVar{ev} }
	}
	from := func(src corev1.EnvVarSource) func(*appsv1.Deployment) {
		return env(corev1.EnvVar{Name: "X", ValueFrom: &src})
	}
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "A variable read from a secret key is valid.", mutate: from(corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{
			LocalObjectReference: corev1.LocalObjectReference{Name: "db"}, Key: "password"}})},
		{name: "A variable name with dots and dashes is valid under the relaxed rules.", mutate: env(corev1.EnvVar{Name: "my.var-1", Value: "x"})},
		{name: "A variable without a name is rejected.", mutate: env(corev1.EnvVar{Value: "x"}),
			want: []wantErr{required(p + ".name")}},
		{name: "A variable name with an equals sign is invalid.", mutate: env(corev1.EnvVar{Name: "A=B", Value: "x"}),
			want: []wantErr{invalid(p + ".name")}},
		{name: "A value and a valueFrom together are invalid.", mutate: env(corev1.EnvVar{Name: "X", Value: "x",
			ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{FieldPath: "metadata.name"}}}),
			want: []wantErr{invalid(p + ".valueFrom")}},
		{name: "A valueFrom without a source is missing one.", mutate: from(corev1.EnvVarSource{}),
			want: []wantErr{required(p + ".valueFrom")}},
		{name: "A valueFrom with two sources forbids the second.", mutate: from(corev1.EnvVarSource{
			FieldRef:         &corev1.ObjectFieldSelector{FieldPath: "metadata.name"},
			ResourceFieldRef: &corev1.ResourceFieldSelector{Resource: "limits.cpu"}}),
			want: []wantErr{forbidden(p + ".valueFrom.resourceFieldRef")}},
		{name: "Empty field paths, resources and keys are reported where they are.", mutate: func(d *appsv1.Deployment) {
			ctr(d).Env = []corev1.EnvVar{
				{Name: "A", ValueFrom: &corev1.EnvVarSource{FieldRef: &corev1.ObjectFieldSelector{}}},
				{Name: "B", ValueFrom: &corev1.EnvVarSource{ResourceFieldRef: &corev1.ResourceFieldSelector{}}},
				{Name: "C", ValueFrom: &corev1.EnvVarSource{ConfigMapKeyRef: &corev1.ConfigMapKeySelector{}}},
				{Name: "D", ValueFrom: &corev1.EnvVarSource{SecretKeyRef: &corev1.SecretKeySelector{Key: "bad key"}}},
			}
		}, want: []wantErr{
			required(ctrPath + ".env[0].valueFrom.fieldRef.fieldPath"),
			required(ctrPath + ".env[1].valueFrom.resourceFieldRef.resource"),
			required(ctrPath + ".env[2].valueFrom.configMapKeyRef.key"),
			invalid(ctrPath + ".env[3].valueFrom.secretKeyRef.key"),
		}},
		{name: "An envFrom entry needs exactly one source and a valid prefix.", mutate: func(d *appsv1.Deployment) {
			ctr(d).EnvFrom = []corev1.EnvFromSource{
				{ConfigMapRef: &corev1.ConfigMapEnvSource{LocalObjectReference: corev1.LocalObjectReference{Name: "c"}}, Prefix: "APP_"},
				{Prefix: "A=B"},
			}
		}, want: []wantErr{required(ctrPath + ".envFrom[1]"), invalid(ctrPath + ".envFrom[1].prefix")}},
	})
}

func TestValidateContainerResources(t *testing.T) {
	t.Parallel()
	const p = ctrPath + ".resources"
	res := func(requests, limits corev1.ResourceList) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) {
			ctr(d).Resources = corev1.ResourceRequirements{Requests: requests, Limits: limits}
		}
	}
	q := resource.MustParse
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "Requests equal to limits are valid.", mutate: res(
			corev1.ResourceList{corev1.ResourceMemory: q("1Gi")}, corev1.ResourceList{corev1.ResourceMemory: q("1024Mi")})},
		{name: "Requests without limits and an extended resource are valid.", mutate: res(
			corev1.ResourceList{corev1.ResourceCPU: q("8"), "example.com/gpu": q("1")}, nil)},
		{name: "A request above its limit is invalid at the request.", mutate: res(
			corev1.ResourceList{corev1.ResourceCPU: q("2")}, corev1.ResourceList{corev1.ResourceCPU: q("1")}),
			want: []wantErr{invalid(p + ".requests[cpu]")}},
		{name: "Negative quantities are invalid.", mutate: res(
			corev1.ResourceList{corev1.ResourceMemory: q("-1")}, corev1.ResourceList{corev1.ResourceCPU: q("-1")}),
			want: []wantErr{invalid(p + ".requests[memory]"), invalid(p + ".limits[cpu]")}},
		{name: "A resource name that is not a qualified name is invalid.", mutate: res(
			corev1.ResourceList{"bad name": q("1")}, nil),
			want: []wantErr{invalid(p + ".requests[bad name]")}},
	})
}

func TestValidateVolumeMounts(t *testing.T) {
	t.Parallel()
	const p = ctrPath + ".volumeMounts"
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "A mount of an unknown volume is not found.", mutate: func(d *appsv1.Deployment) { ctr(d).VolumeMounts[0].Name = "cache" },
			want: []wantErr{notFound(p + "[0].name")}},
		{name: "A mount without a name or a path is missing both.", mutate: func(d *appsv1.Deployment) {
			ctr(d).VolumeMounts = []corev1.VolumeMount{{}}
		}, want: []wantErr{required(p + "[0].name"), required(p + "[0].mountPath")}},
		{name: "Two mounts at one path are invalid.", mutate: func(d *appsv1.Deployment) {
			ctr(d).VolumeMounts = append(ctr(d).VolumeMounts, corev1.VolumeMount{Name: "config", MountPath: "/etc/web"})
		}, want: []wantErr{invalid(p + "[1].mountPath")}},
		{name: "An absolute subPath and one escaping the volume are invalid.", mutate: func(d *appsv1.Deployment) {
			ctr(d).VolumeMounts = []corev1.VolumeMount{
				{Name: "config", MountPath: "/a", SubPath: "/etc"},
				{Name: "config", MountPath: "/b", SubPath: "x/../../etc"},
				{Name: "config", MountPath: "/c", SubPath: "x/y"},
			}
		}, want: []wantErr{invalid(p + "[0].subPath"), invalid(p + "[1].subPath")}},
		{name: "A device of an unknown volume without a path is reported twice.", mutate: func(d *appsv1.Deployment) {
			ctr(d).VolumeDevices = []corev1.VolumeDevice{{Name: "disk"}}
		}, want: []wantErr{notFound(ctrPath + ".volumeDevices[0].name"), required(ctrPath + ".volumeDevices[0].devicePath")}},
	})
}

func TestValidateProbesAndInitContainers(t *testing.T) {
	t.Parallel()
	http := corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Path: "/", Port: intstr.FromString("http"), Scheme: corev1.URISchemeHTTP}}
	probe := func(h corev1.ProbeHandler) *corev1.Probe {
		return &corev1.Probe{ProbeHandler: h, TimeoutSeconds: 1, PeriodSeconds: 10, SuccessThreshold: 1, FailureThreshold: 3}
	}
	const initPath = podSpecPath + ".initContainers[0]"
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "HTTP, TCP and gRPC probes with default timings are valid.", mutate: func(d *appsv1.Deployment) {
			ctr(d).LivenessProbe = probe(http)
			ctr(d).ReadinessProbe = probe(corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(80)}})
			ctr(d).StartupProbe = probe(corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 9090}})
		}},
		{name: "A probe without a handler is missing one.", mutate: func(d *appsv1.Deployment) {
			ctr(d).LivenessProbe = probe(corev1.ProbeHandler{})
		}, want: []wantErr{required(ctrPath + ".livenessProbe")}},
		{name: "A probe with two handlers forbids the second.", mutate: func(d *appsv1.Deployment) {
			h := http
			h.Exec = &corev1.ExecAction{Command: []string{"true"}}
			ctr(d).ReadinessProbe = probe(h)
		}, want: []wantErr{forbidden(ctrPath + ".readinessProbe.httpGet")}},
		{name: "Bad ports, a bad scheme and a bad header name in probes are reported.", mutate: func(d *appsv1.Deployment) {
			ctr(d).LivenessProbe = probe(corev1.ProbeHandler{HTTPGet: &corev1.HTTPGetAction{Port: intstr.FromInt32(0), Scheme: "FTP",
				HTTPHeaders: []corev1.HTTPHeader{{Name: "bad header"}}}})
			ctr(d).ReadinessProbe = probe(corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromString("not_a_name")}})
			ctr(d).StartupProbe = probe(corev1.ProbeHandler{GRPC: &corev1.GRPCAction{Port: 70000}})
		}, want: []wantErr{
			invalid(ctrPath + ".livenessProbe.httpGet.port"), notSupported(ctrPath + ".livenessProbe.httpGet.scheme"),
			invalid(ctrPath + ".livenessProbe.httpGet.httpHeaders[0].name"),
			invalid(ctrPath + ".readinessProbe.tcpSocket.port"), invalid(ctrPath + ".startupProbe.grpc.port"),
		}},
		{name: "Negative timings are invalid and liveness needs a success threshold of 1.", mutate: func(d *appsv1.Deployment) {
			p := probe(http)
			p.InitialDelaySeconds, p.TimeoutSeconds, p.PeriodSeconds, p.SuccessThreshold, p.FailureThreshold = -1, -1, -1, 2, -1
			ctr(d).LivenessProbe = p
		}, want: []wantErr{
			invalid(ctrPath + ".livenessProbe.initialDelaySeconds"), invalid(ctrPath + ".livenessProbe.timeoutSeconds"),
			invalid(ctrPath + ".livenessProbe.periodSeconds"), invalid(ctrPath + ".livenessProbe.successThreshold"),
			invalid(ctrPath + ".livenessProbe.failureThreshold"),
		}},
		{name: "A readiness probe may need several successes but takes no grace period.", mutate: func(d *appsv1.Deployment) {
			p := probe(http)
			p.SuccessThreshold, p.TerminationGracePeriodSeconds = 3, ptr.To[int64](10)
			ctr(d).ReadinessProbe = p
		}, want: []wantErr{invalid(ctrPath + ".readinessProbe.terminationGracePeriodSeconds")}},
		{name: "A lifecycle hook needs exactly one handler and a non-negative sleep.", mutate: func(d *appsv1.Deployment) {
			ctr(d).Lifecycle = &corev1.Lifecycle{
				PostStart: &corev1.LifecycleHandler{},
				PreStop:   &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: -1}},
			}
		}, want: []wantErr{required(ctrPath + ".lifecycle.postStart"), invalid(ctrPath + ".lifecycle.preStop.sleep.seconds")}},
		{name: "A plain init container may have neither probes nor hooks.", mutate: func(d *appsv1.Deployment) {
			c := sidecar("init")
			c.ReadinessProbe = probe(http)
			c.Lifecycle = &corev1.Lifecycle{PreStop: &corev1.LifecycleHandler{Sleep: &corev1.SleepAction{Seconds: 1}}}
			pod(d).InitContainers = []corev1.Container{c}
		}, want: []wantErr{forbidden(initPath + ".readinessProbe"), forbidden(initPath + ".lifecycle")}},
		{name: "A sidecar init container may be probed.", mutate: func(d *appsv1.Deployment) {
			c := sidecar("proxy")
			c.RestartPolicy = ptr.To(corev1.ContainerRestartPolicyAlways)
			c.StartupProbe = probe(corev1.ProbeHandler{TCPSocket: &corev1.TCPSocketAction{Port: intstr.FromInt32(15000)}})
			pod(d).InitContainers = []corev1.Container{c}
		}},
	})
}
