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
	"k8s.io/utils/ptr"
)

func TestValidateVolumes(t *testing.T) {
	t.Parallel()
	const p = podSpecPath + ".volumes"
	// withVolume adds a volume named extra with the given source.
	withVolume := func(src corev1.VolumeSource) func(*appsv1.Deployment) {
		return func(d *appsv1.Deployment) {
			pod(d).Volumes = append(pod(d).Volumes, corev1.Volume{Name: "extra", VolumeSource: src})
		}
	}
	runCases(t, validDeployment, ValidateDeployment, []testCase[*appsv1.Deployment]{
		{name: "Secret, claim, host path, projected and ephemeral volumes that are complete are valid.", mutate: func(d *appsv1.Deployment) {
			pod(d).Volumes = append(pod(d).Volumes,
				corev1.Volume{Name: "s", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "tls",
					Items: []corev1.KeyToPath{{Key: "tls.crt", Path: "certs/tls.crt", Mode: ptr.To[int32](0o400)}}}}},
				corev1.Volume{Name: "c", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{ClaimName: "data"}}},
				corev1.Volume{Name: "h", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{Path: "/var/log"}}},
				corev1.Volume{Name: "p", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: ptr.To[int32](0o644)}}},
				corev1.Volume{Name: "e", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
					VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{Spec: claimSpec()}}}},
			)
		}},
		{name: "A volume without a name is rejected.", mutate: func(d *appsv1.Deployment) { pod(d).Volumes[0].Name = "" },
			want: []wantErr{required(p + "[0].name"), notFound(ctrPath + ".volumeMounts[0].name")}},
		{name: "A volume name that is not a DNS label is invalid.", mutate: func(d *appsv1.Deployment) {
			pod(d).Volumes[0].Name = "Config"
			ctr(d).VolumeMounts[0].Name = "Config"
		}, want: []wantErr{invalid(p + "[0].name")}},
		{name: "Two volumes with one name are duplicates.", mutate: func(d *appsv1.Deployment) {
			pod(d).Volumes = append(pod(d).Volumes, *pod(d).Volumes[0].DeepCopy())
		}, want: []wantErr{duplicate(p + "[1].name")}},
		{name: "A volume without a source is missing one.", mutate: withVolume(corev1.VolumeSource{}),
			want: []wantErr{required(p + "[1]")}},
		{name: "A volume with two sources forbids the second.", mutate: withVolume(corev1.VolumeSource{
			EmptyDir: &corev1.EmptyDirVolumeSource{}, Secret: &corev1.SecretVolumeSource{SecretName: "s"}}),
			want: []wantErr{forbidden(p + "[1].secret")}},
		{name: "Secret, configMap, claim and host path volumes need what they refer to.", mutate: func(d *appsv1.Deployment) {
			pod(d).Volumes = []corev1.Volume{
				{Name: "config", VolumeSource: corev1.VolumeSource{ConfigMap: &corev1.ConfigMapVolumeSource{}}},
				{Name: "b", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{}}},
				{Name: "c", VolumeSource: corev1.VolumeSource{PersistentVolumeClaim: &corev1.PersistentVolumeClaimVolumeSource{}}},
				{Name: "d", VolumeSource: corev1.VolumeSource{HostPath: &corev1.HostPathVolumeSource{}}},
			}
		}, want: []wantErr{
			required(p + "[0].configMap.name"), required(p + "[1].secret.secretName"),
			required(p + "[2].persistentVolumeClaim.claimName"), required(p + "[3].hostPath.path"),
		}},
		{name: "File modes above 0777 are invalid wherever they are set.", mutate: func(d *appsv1.Deployment) {
			pod(d).Volumes[0].ConfigMap.DefaultMode = ptr.To[int32](0o1000)
			pod(d).Volumes[0].ConfigMap.Items = []corev1.KeyToPath{{Key: "k", Path: "k", Mode: ptr.To[int32](-1)}}
			pod(d).Volumes = append(pod(d).Volumes,
				corev1.Volume{Name: "b", VolumeSource: corev1.VolumeSource{Secret: &corev1.SecretVolumeSource{SecretName: "s", DefaultMode: ptr.To[int32](0o1000)}}},
				corev1.Volume{Name: "c", VolumeSource: corev1.VolumeSource{DownwardAPI: &corev1.DownwardAPIVolumeSource{DefaultMode: ptr.To[int32](0o1000)}}},
				corev1.Volume{Name: "d", VolumeSource: corev1.VolumeSource{Projected: &corev1.ProjectedVolumeSource{DefaultMode: ptr.To[int32](0o1000)}}},
			)
		}, want: []wantErr{
			invalid(p + "[0].configMap.defaultMode"), invalid(p + "[0].configMap.items[0].mode"),
			invalid(p + "[1].secret.defaultMode"), invalid(p + "[2].downwardAPI.defaultMode"), invalid(p + "[3].projected.defaultMode"),
		}},
		{name: "Projected file paths must be given, relative and inside the volume.", mutate: func(d *appsv1.Deployment) {
			pod(d).Volumes[0].ConfigMap.Items = []corev1.KeyToPath{{Path: "a"}, {Key: "b"}, {Key: "c", Path: "/etc/c"}, {Key: "d", Path: "../d"}}
			pod(d).Volumes = append(pod(d).Volumes, corev1.Volume{Name: "b", VolumeSource: corev1.VolumeSource{
				DownwardAPI: &corev1.DownwardAPIVolumeSource{Items: []corev1.DownwardAPIVolumeFile{{Path: "/labels"}}}}})
		}, want: []wantErr{
			required(p + "[0].configMap.items[0].key"), required(p + "[0].configMap.items[1].path"),
			invalid(p + "[0].configMap.items[2].path"), invalid(p + "[0].configMap.items[3].path"),
			invalid(p + "[1].downwardAPI.items[0].path"),
		}},
		{name: "An ephemeral volume needs a claim template with a valid spec.", mutate: func(d *appsv1.Deployment) {
			pod(d).Volumes = append(pod(d).Volumes,
				corev1.Volume{Name: "a", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{}}},
				corev1.Volume{Name: "b", VolumeSource: corev1.VolumeSource{Ephemeral: &corev1.EphemeralVolumeSource{
					VolumeClaimTemplate: &corev1.PersistentVolumeClaimTemplate{}}}},
			)
		}, want: []wantErr{
			required(p + "[1].ephemeral.volumeClaimTemplate"),
			required(p + "[2].ephemeral.volumeClaimTemplate.spec.accessModes"),
			required(p + "[2].ephemeral.volumeClaimTemplate.spec.resources.requests[storage]"),
		}},
	})
}
