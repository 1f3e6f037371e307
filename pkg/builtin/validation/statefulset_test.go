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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func TestValidateStatefulSet(t *testing.T) {
	t.Parallel()
	const ru = "spec.updateStrategy.rollingUpdate"
	runCases(t, validStatefulSet, ValidateStatefulSet, []testCase[*appsv1.StatefulSet]{
		{name: "A defaulted statefulset mounting its claim template is valid.", mutate: noChange[*appsv1.StatefulSet]},
		{name: "A statefulset without a serviceName, in parallel, deleting its claims, is valid.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.ServiceName = ""
			ss.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
			ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenDeleted = appsv1.DeletePersistentVolumeClaimRetentionPolicyType
		}},
		{name: "An OnDelete statefulset without rolling parameters is valid.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: appsv1.OnDeleteStatefulSetStrategyType}
		}},
		{name: "A mount of neither a volume nor a claim template is not found.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.VolumeClaimTemplates[0].Name = "other"
		}, want: []wantErr{notFound("spec.template.spec.containers[0].volumeMounts[1].name")}},
		{name: "Negative replicas, revision history, minReadySeconds and ordinals start are invalid.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.Replicas, ss.Spec.RevisionHistoryLimit = ptr.To[int32](-1), ptr.To[int32](-1)
			ss.Spec.MinReadySeconds = -1
			ss.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: -1}
		}, want: []wantErr{invalid("spec.replicas"), invalid("spec.revisionHistoryLimit"), invalid("spec.minReadySeconds"), invalid("spec.ordinals.start")}},
		{name: "A statefulset without a selector is rejected.", mutate: func(ss *appsv1.StatefulSet) { ss.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "A selector not matching the template is reported at the template labels.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
		}, want: []wantErr{invalid("spec.template.metadata.labels")}},
		{name: "A statefulset's pods must restart Always.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
		}, want: []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{name: "A serviceName that is not a DNS label is invalid.", mutate: func(ss *appsv1.StatefulSet) { ss.Spec.ServiceName = "db.svc" },
			want: []wantErr{invalid("spec.serviceName")}},
		{name: "An unknown podManagementPolicy is not supported.", mutate: func(ss *appsv1.StatefulSet) { ss.Spec.PodManagementPolicy = "Random" },
			want: []wantErr{notSupported("spec.podManagementPolicy")}},
		{name: "An unknown update strategy is not supported.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.UpdateStrategy = appsv1.StatefulSetUpdateStrategy{Type: "Recreate"}
		}, want: []wantErr{notSupported("spec.updateStrategy.type")}},
		{name: "An OnDelete statefulset may not have rolling parameters.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.UpdateStrategy.Type = appsv1.OnDeleteStatefulSetStrategyType
		}, want: []wantErr{forbidden(ru)}},
		{name: "A negative partition and a zero maxUnavailable are invalid.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateStatefulSetStrategy{
				Partition: ptr.To[int32](-1), MaxUnavailable: ptr.To(intstr.FromString("0%"))}
		}, want: []wantErr{invalid(ru + ".partition"), invalid(ru + ".maxUnavailable")}},
		{name: "A maxUnavailable above 100% is invalid.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.UpdateStrategy.RollingUpdate.MaxUnavailable = ptr.To(intstr.FromString("150%"))
		}, want: []wantErr{invalid(ru + ".maxUnavailable")}},
		{name: "Unknown claim retention policies are not supported.", mutate: func(ss *appsv1.StatefulSet) {
			ss.Spec.PersistentVolumeClaimRetentionPolicy = &appsv1.StatefulSetPersistentVolumeClaimRetentionPolicy{WhenDeleted: "Keep"}
		}, want: []wantErr{
			notSupported("spec.persistentVolumeClaimRetentionPolicy.whenDeleted"),
			required("spec.persistentVolumeClaimRetentionPolicy.whenScaled"),
		}},
		{name: "Claim templates need distinct DNS label names, valid labels and a valid spec.", mutate: func(ss *appsv1.StatefulSet) {
			bad := ss.Spec.VolumeClaimTemplates[0]
			bad.Name, bad.Labels = "Data", map[string]string{"k": "bad value"}
			bad.Spec = corev1.PersistentVolumeClaimSpec{}
			ss.Spec.VolumeClaimTemplates = append(ss.Spec.VolumeClaimTemplates,
				*ss.Spec.VolumeClaimTemplates[0].DeepCopy(), bad, corev1.PersistentVolumeClaim{Spec: claimSpec()})
		}, want: []wantErr{
			duplicate("spec.volumeClaimTemplates[1].metadata.name"),
			invalid("spec.volumeClaimTemplates[2].metadata.name"),
			invalid("spec.volumeClaimTemplates[2].metadata.labels"),
			required("spec.volumeClaimTemplates[2].spec.accessModes"),
			required("spec.volumeClaimTemplates[2].spec.resources.requests[storage]"),
			required("spec.volumeClaimTemplates[3].metadata.name"),
		}},
	})
}

func TestValidateStatefulSetUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, validStatefulSet, ValidateStatefulSetUpdate, []updateCase[*appsv1.StatefulSet]{
		{name: "Changing replicas, template, strategy, history, retention, minReadySeconds and ordinals is valid.", mutate: func(ss, _ *appsv1.StatefulSet) {
			ss.Spec.Replicas = ptr.To[int32](3)
			ss.Spec.Template.Spec.Containers[0].Image = "postgres:17"
			ss.Spec.UpdateStrategy.RollingUpdate.Partition = ptr.To[int32](2)
			ss.Spec.RevisionHistoryLimit = ptr.To[int32](3)
			ss.Spec.PersistentVolumeClaimRetentionPolicy.WhenScaled = appsv1.DeletePersistentVolumeClaimRetentionPolicyType
			ss.Spec.MinReadySeconds = 10
			ss.Spec.Ordinals = &appsv1.StatefulSetOrdinals{Start: 1}
		}},
		{name: "Changing the selector is invalid.", mutate: func(ss, _ *appsv1.StatefulSet) {
			ss.Spec.Selector.MatchLabels["tier"] = "front"
		}, want: []wantErr{invalid("spec.selector")}},
		{name: "Changing serviceName, podManagementPolicy or claim templates is invalid at each field.", mutate: func(ss, _ *appsv1.StatefulSet) {
			ss.Spec.ServiceName = "db2"
			ss.Spec.PodManagementPolicy = appsv1.ParallelPodManagement
			ss.Spec.VolumeClaimTemplates[0].Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany}
		}, want: []wantErr{invalid("spec.serviceName"), invalid("spec.podManagementPolicy"), invalid("spec.volumeClaimTemplates")}},
	})
}
