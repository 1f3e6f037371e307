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
	"testing"

	corev1 "k8s.io/api/core/v1"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func claimStatus(phase corev1.PersistentVolumeClaimPhase) *corev1.PersistentVolumeClaimStatus {
	return &corev1.PersistentVolumeClaimStatus{Phase: phase, AccessModes: []corev1.PersistentVolumeAccessMode{corev1.ReadWriteOnce}}
}

func TestAggregateStatusOfPersistentVolumeClaim(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name   string
		phases []*corev1.PersistentVolumeClaimStatus // of members m1, m2...; nil: not reported
		want   corev1.PersistentVolumeClaimPhase
	}{
		{name: "A claim bound in every member is Bound.", phases: []*corev1.PersistentVolumeClaimStatus{claimStatus(corev1.ClaimBound), claimStatus(corev1.ClaimBound)}, want: corev1.ClaimBound},
		{name: "A claim pending in a member is Pending.", phases: []*corev1.PersistentVolumeClaimStatus{claimStatus(corev1.ClaimBound), claimStatus(corev1.ClaimPending)}, want: corev1.ClaimPending},
		{name: "A claim a member has not reported on is Pending.", phases: []*corev1.PersistentVolumeClaimStatus{claimStatus(corev1.ClaimBound), nil}, want: corev1.ClaimPending},
		{name: "A claim whose volume a member lost is Lost, whatever the others report.", phases: []*corev1.PersistentVolumeClaimStatus{nil, claimStatus(corev1.ClaimPending), claimStatus(corev1.ClaimLost)}, want: corev1.ClaimLost},
		{name: "A claim placed in no member cluster is Pending.", want: corev1.ClaimPending},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var items []workv1alpha2.AggregatedStatusItem
			for i, p := range tc.phases {
				items = append(items, report(t, "m"+string(rune('1'+i)), p))
			}
			tmpl := object(t, "v1", "PersistentVolumeClaim", &corev1.PersistentVolumeClaim{Status: *claimStatus(corev1.ClaimBound)})
			got := aggregateAs[corev1.PersistentVolumeClaimStatus](t, tmpl, items)
			if got.Phase != tc.want || len(got.AccessModes) != 0 {
				t.Errorf("status = %+v, want phase %s and nothing else", got, tc.want)
			}
		})
	}
}
