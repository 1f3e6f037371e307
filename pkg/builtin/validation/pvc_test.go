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

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	"github.com/mco-org/mco/pkg/builtin/defaults"
)

func validPVC() *corev1.PersistentVolumeClaim {
	pvc := &corev1.PersistentVolumeClaim{ObjectMeta: objectMeta("data"), Spec: claimSpec()}
	pvc.Spec.StorageClassName = ptr.To("fast")
	defaults.PersistentVolumeClaim(pvc)
	return pvc
}

func TestValidatePersistentVolumeClaim(t *testing.T) {
	t.Parallel()
	const storage = "spec.resources.requests[storage]"
	runCases(t, validPVC, ValidatePersistentVolumeClaim, []testCase[*corev1.PersistentVolumeClaim]{
		{name: "A defaulted claim for 1Gi in a storage class is valid.", mutate: noChange[*corev1.PersistentVolumeClaim]},
		{name: "A block claim from a snapshot with a selector and the empty class is valid.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.VolumeMode = ptr.To(corev1.PersistentVolumeBlock)
			pvc.Spec.StorageClassName = ptr.To("")
			pvc.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "gold"}}
			pvc.Spec.DataSource = &corev1.TypedLocalObjectReference{APIGroup: ptr.To("snapshot.storage.k8s.io"), Kind: "VolumeSnapshot", Name: "snap"}
		}},
		{name: "A claim without access modes is missing them.", mutate: func(pvc *corev1.PersistentVolumeClaim) { pvc.Spec.AccessModes = nil },
			want: []wantErr{required("spec.accessModes")}},
		{name: "An unknown access mode is not supported.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.AccessModes = append(pvc.Spec.AccessModes, "ReadWriteSome")
		}, want: []wantErr{notSupported("spec.accessModes[1]")}},
		{name: "ReadWriteOncePod alone is valid.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOncePod}
		}},
		{name: "ReadWriteOncePod combined with another mode is forbidden.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.AccessModes = append(pvc.Spec.AccessModes, corev1.ReadWriteOncePod)
		}, want: []wantErr{forbidden("spec.accessModes")}},
		{name: "A claim without a storage request is missing it.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.Resources.Requests = nil
		}, want: []wantErr{required(storage)}},
		{name: "A zero storage request is invalid.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.Resources.Requests[corev1.ResourceStorage] = resource.MustParse("0")
		}, want: []wantErr{invalid(storage)}},
		{name: "Negative limits and other requests are invalid.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.Resources.Requests["example.com/iops"] = resource.MustParse("-1")
			pvc.Spec.Resources.Limits = corev1.ResourceList{corev1.ResourceStorage: resource.MustParse("-1Gi")}
		}, want: []wantErr{invalid("spec.resources.requests[example.com/iops]"), invalid("spec.resources.limits[storage]")}},
		{name: "An unknown volume mode is not supported.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.VolumeMode = ptr.To[corev1.PersistentVolumeMode]("Raw")
		}, want: []wantErr{notSupported("spec.volumeMode")}},
		{name: "Class names that are not DNS subdomains are invalid.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.StorageClassName, pvc.Spec.VolumeAttributesClassName = ptr.To("Fast"), ptr.To("gold_1")
		}, want: []wantErr{invalid("spec.storageClassName"), invalid("spec.volumeAttributesClassName")}},
		{name: "A selector with a bad label value is invalid.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "gold plated"}}
		}, want: []wantErr{invalid("spec.selector.matchLabels")}},
		{name: "Data sources without a kind or a name are incomplete.", mutate: func(pvc *corev1.PersistentVolumeClaim) {
			pvc.Spec.DataSource = &corev1.TypedLocalObjectReference{Name: "snap"}
			pvc.Spec.DataSourceRef = &corev1.TypedObjectReference{Kind: "VolumeSnapshot"}
		}, want: []wantErr{required("spec.dataSource.kind"), required("spec.dataSourceRef.name")}},
	})
}

func TestValidatePersistentVolumeClaimUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, validPVC, ValidatePersistentVolumeClaimUpdate, []updateCase[*corev1.PersistentVolumeClaim]{
		{name: "Growing the storage request, binding to a volume and changing the attributes class is valid.", mutate: func(pvc, _ *corev1.PersistentVolumeClaim) {
			pvc.Spec.Resources.Requests[corev1.ResourceStorage] = resource.MustParse("10Gi")
			pvc.Spec.VolumeName = "pv-1"
			pvc.Spec.VolumeAttributesClassName = ptr.To("gold")
		}},
		{name: "Changing the access modes or the storage class is forbidden.", mutate: func(pvc, _ *corev1.PersistentVolumeClaim) {
			pvc.Spec.AccessModes = []corev1.PersistentVolumeAccessMode{corev1.ReadWriteMany}
			pvc.Spec.StorageClassName = ptr.To("slow")
		}, want: []wantErr{forbidden("spec")}},
		{name: "Rebinding a claim to another volume is forbidden.", mutate: func(pvc, old *corev1.PersistentVolumeClaim) {
			old.Spec.VolumeName = "pv-1"
			pvc.Spec.VolumeName = "pv-2"
		}, want: []wantErr{forbidden("spec")}},
		{name: "The new claim is validated in full.", mutate: func(pvc, _ *corev1.PersistentVolumeClaim) {
			pvc.Spec.Resources.Requests = nil
		}, want: []wantErr{required("spec.resources.requests[storage]")}},
	})
}
