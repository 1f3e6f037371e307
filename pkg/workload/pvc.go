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

package workload

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// aggregatePersistentVolumeClaim decides the claim's phase: Lost when any
// member lost its volume, Bound when every member is bound, else Pending
// (a member that has not reported is not bound yet). Members report the
// claim's whole status; only the phase is aggregated.
func aggregatePersistentVolumeClaim(_ *corev1.PersistentVolumeClaim, members []member[corev1.PersistentVolumeClaimStatus], _ metav1.Time) corev1.PersistentVolumeClaimStatus {
	phase := corev1.ClaimPending
	if len(members) > 0 {
		phase = corev1.ClaimBound
	}
	for _, m := range members {
		switch {
		case m.status != nil && m.status.Phase == corev1.ClaimLost:
			return corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimLost}
		case m.status == nil || m.status.Phase != corev1.ClaimBound:
			phase = corev1.ClaimPending
		}
	}
	return corev1.PersistentVolumeClaimStatus{Phase: phase}
}
