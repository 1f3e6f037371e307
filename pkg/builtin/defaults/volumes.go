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
	"reflect"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// volume defaults one pod volume. A volume that names no source at all is an
// emptyDir.
func volume(v *corev1.Volume) {
	if !hasVolumeSource(&v.VolumeSource) {
		v.EmptyDir = &corev1.EmptyDirVolumeSource{}
		return
	}
	if v.HostPath != nil && v.HostPath.Type == nil {
		v.HostPath.Type = ptr.To(corev1.HostPathUnset)
	}
	if v.Secret != nil && v.Secret.DefaultMode == nil {
		v.Secret.DefaultMode = ptr.To(corev1.SecretVolumeSourceDefaultMode)
	}
	if v.ConfigMap != nil && v.ConfigMap.DefaultMode == nil {
		v.ConfigMap.DefaultMode = ptr.To(corev1.ConfigMapVolumeSourceDefaultMode)
	}
	if v.DownwardAPI != nil {
		if v.DownwardAPI.DefaultMode == nil {
			v.DownwardAPI.DefaultMode = ptr.To(corev1.DownwardAPIVolumeSourceDefaultMode)
		}
		downwardAPIItems(v.DownwardAPI.Items)
	}
	if v.Projected != nil {
		projected(v.Projected)
	}
	if v.Ephemeral != nil && v.Ephemeral.VolumeClaimTemplate != nil {
		persistentVolumeClaimSpec(&v.Ephemeral.VolumeClaimTemplate.Spec)
	}
}

// hasVolumeSource reports whether any of the source pointers of s is set.
func hasVolumeSource(s *corev1.VolumeSource) bool {
	v := reflect.ValueOf(s).Elem()
	for i := 0; i < v.NumField(); i++ {
		if f := v.Field(i); f.Kind() == reflect.Pointer && !f.IsNil() {
			return true
		}
	}
	return false
}

func projected(p *corev1.ProjectedVolumeSource) {
	if p.DefaultMode == nil {
		p.DefaultMode = ptr.To(corev1.ProjectedVolumeSourceDefaultMode)
	}
	for i := range p.Sources {
		s := &p.Sources[i]
		if s.DownwardAPI != nil {
			downwardAPIItems(s.DownwardAPI.Items)
		}
		if s.ServiceAccountToken != nil && s.ServiceAccountToken.ExpirationSeconds == nil {
			s.ServiceAccountToken.ExpirationSeconds = ptr.To(serviceAccountTokenExpirationSeconds)
		}
	}
}

func downwardAPIItems(items []corev1.DownwardAPIVolumeFile) {
	for i := range items {
		fieldRef(items[i].FieldRef)
	}
}
