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
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

// The pod template rules are shared by all workload kinds; they are tested
// through a Deployment.

const podSpecPath = "spec.template.spec"

func pod(d *appsv1.Deployment) *corev1.PodSpec { return &d.Spec.Template.Spec }

func TestValidatePodTemplate(t *testing.T) {
	t.Parallel()
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "A defaulted template with a volume, a port, env and resources is valid.", mutate: noChange[*appsv1.Deployment]},
		{name: "Template labels that are not label values are reported at the template's labels.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Template.Labels["tier"] = "front end"
		}, want: []wantErr{invalid("spec.template.metadata.labels")}},
		{name: "Template annotations with a bad key are reported at the template's annotations.", mutate: func(d *appsv1.Deployment) {
			d.Spec.Template.Annotations = map[string]string{"bad key": "v"}
		}, want: []wantErr{invalid("spec.template.metadata.annotations")}},
		{name: "A template without containers is rejected.", mutate: func(d *appsv1.Deployment) {
			pod(d).Containers = nil
			pod(d).Volumes = nil
		}, want: []wantErr{required(podSpecPath + ".containers")}},
		{name: "Ephemeral containers have no place in a template.", mutate: func(d *appsv1.Deployment) {
			pod(d).EphemeralContainers = []corev1.EphemeralContainer{{}}
		}, want: []wantErr{forbidden(podSpecPath + ".ephemeralContainers")}},
		{name: "A deployment's pods must restart Always, not OnFailure.", mutate: func(d *appsv1.Deployment) {
			pod(d).RestartPolicy = corev1.RestartPolicyOnFailure
		}, want: []wantErr{notSupported(podSpecPath + ".restartPolicy")}},
		{name: "A missing restartPolicy is required.", mutate: func(d *appsv1.Deployment) {
			pod(d).RestartPolicy = ""
		}, want: []wantErr{required(podSpecPath + ".restartPolicy")}},
		{name: "A long-running pod may not have an active deadline.", mutate: func(d *appsv1.Deployment) {
			pod(d).ActiveDeadlineSeconds = ptr.To[int64](60)
		}, want: []wantErr{forbidden(podSpecPath + ".activeDeadlineSeconds")}},
		{name: "A negative termination grace period is invalid.", mutate: func(d *appsv1.Deployment) {
			pod(d).TerminationGracePeriodSeconds = ptr.To[int64](-1)
		}, want: []wantErr{invalid(podSpecPath + ".terminationGracePeriodSeconds")}},
		{name: "An unknown dnsPolicy is not supported.", mutate: func(d *appsv1.Deployment) {
			pod(d).DNSPolicy = "Custom"
		}, want: []wantErr{notSupported(podSpecPath + ".dnsPolicy")}},
		{name: "dnsPolicy None without a dnsConfig is missing the config.", mutate: func(d *appsv1.Deployment) {
			pod(d).DNSPolicy = corev1.DNSNone
		}, want: []wantErr{required(podSpecPath + ".dnsConfig")}},
		{name: "dnsPolicy None with a dnsConfig listing a nameserver is valid.", mutate: func(d *appsv1.Deployment) {
			pod(d).DNSPolicy = corev1.DNSNone
			pod(d).DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"192.0.2.53"}}
		}},
		{name: "dnsPolicy None with nameservers missing or malformed is reported per field.", mutate: func(d *appsv1.Deployment) {
			pod(d).DNSPolicy = corev1.DNSNone
			pod(d).DNSConfig = &corev1.PodDNSConfig{Searches: []string{"example.com"}}
		}, want: []wantErr{required(podSpecPath + ".dnsConfig.nameservers")}},
		{name: "More than three nameservers, one of them not an IP, are too many and invalid.", mutate: func(d *appsv1.Deployment) {
			pod(d).DNSConfig = &corev1.PodDNSConfig{Nameservers: []string{"192.0.2.1", "192.0.2.2", "192.0.2.3", "dns"}}
		}, want: []wantErr{fe(field.ErrorTypeTooMany, podSpecPath+".dnsConfig.nameservers"), invalid(podSpecPath + ".dnsConfig.nameservers[3]")}},
		{name: "A nodeSelector value that is not a label value is invalid.", mutate: func(d *appsv1.Deployment) {
			pod(d).NodeSelector = map[string]string{"disk": "fast ssd"}
		}, want: []wantErr{invalid(podSpecPath + ".nodeSelector")}},
		{name: "A serviceAccountName that is not a DNS subdomain is invalid.", mutate: func(d *appsv1.Deployment) {
			pod(d).ServiceAccountName, pod(d).DeprecatedServiceAccount = "Robot", "Robot"
		}, want: []wantErr{invalid(podSpecPath + ".serviceAccountName")}},
		{name: "A deprecated serviceAccount that disagrees with serviceAccountName is invalid.", mutate: func(d *appsv1.Deployment) {
			pod(d).ServiceAccountName, pod(d).DeprecatedServiceAccount = "robot", "other"
		}, want: []wantErr{invalid(podSpecPath + ".serviceAccount")}},
		{name: "A hostname and a subdomain must be DNS labels.", mutate: func(d *appsv1.Deployment) {
			pod(d).Hostname, pod(d).Subdomain = "web.1", "Sub"
		}, want: []wantErr{invalid(podSpecPath + ".hostname"), invalid(podSpecPath + ".subdomain")}},
		{name: "A priorityClassName and a nodeName must be DNS subdomains.", mutate: func(d *appsv1.Deployment) {
			pod(d).PriorityClassName, pod(d).NodeName = "High", "node_1"
		}, want: []wantErr{invalid(podSpecPath + ".priorityClassName"), invalid(podSpecPath + ".nodeName")}},
		{name: "An image pull secret needs a name.", mutate: func(d *appsv1.Deployment) {
			pod(d).ImagePullSecrets = []corev1.LocalObjectReference{{Name: "regcred"}, {}}
		}, want: []wantErr{required(podSpecPath + ".imagePullSecrets[1].name")}},
	})
}

func TestValidateTolerations(t *testing.T) {
	t.Parallel()
	const p = podSpecPath + ".tolerations[0]"
	tolerate := func(tol corev1.Toleration) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) { pod(d).Tolerations = []corev1.Toleration{tol} }
	}
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "An Equal toleration with a NoExecute effect and a grace period is valid.", mutate: tolerate(corev1.Toleration{
			Key: "example.com/gpu", Operator: corev1.TolerationOpEqual, Value: "true", Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr.To[int64](30)})},
		{name: "An Exists toleration without a key tolerates everything and is valid.", mutate: tolerate(corev1.Toleration{
			Operator: corev1.TolerationOpExists})},
		{name: "A toleration key that is not a qualified name is invalid.", mutate: tolerate(corev1.Toleration{
			Key: "bad key", Operator: corev1.TolerationOpExists}),
			want: []wantErr{invalid(p + ".key")}},
		{name: "An Exists toleration may not carry a value.", mutate: tolerate(corev1.Toleration{
			Key: "k", Operator: corev1.TolerationOpExists, Value: "v"}),
			want: []wantErr{invalid(p + ".value")}},
		{name: "An empty key needs the Exists operator.", mutate: tolerate(corev1.Toleration{Value: "v"}),
			want: []wantErr{invalid(p + ".operator")}},
		{name: "An unknown operator is not supported.", mutate: tolerate(corev1.Toleration{Key: "k", Operator: "In"}),
			want: []wantErr{notSupported(p + ".operator")}},
		{name: "An unknown effect is not supported.", mutate: tolerate(corev1.Toleration{Key: "k", Effect: "NoRun"}),
			want: []wantErr{notSupported(p + ".effect")}},
		{name: "A grace period needs the NoExecute effect.", mutate: tolerate(corev1.Toleration{
			Key: "k", Effect: corev1.TaintEffectNoSchedule, TolerationSeconds: ptr.To[int64](5)}),
			want: []wantErr{invalid(p + ".effect")}},
	})
}
