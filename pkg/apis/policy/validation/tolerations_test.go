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

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func TestValidatePlacementClusterTolerations(t *testing.T) {
	t.Parallel()
	const ct = pl + ".clusterTolerations"
	cases := []struct {
		name       string
		toleration corev1.Toleration
		want       []fieldErr
	}{
		{
			name:       "A bare NoSchedule effect with no key and no operator is valid.",
			toleration: corev1.Toleration{Effect: corev1.TaintEffectNoSchedule},
		},
		{
			name:       "An empty key with operator Exists tolerates everything and is valid.",
			toleration: corev1.Toleration{Operator: corev1.TolerationOpExists},
		},
		{
			name: "An Equal toleration of a prefixed key with a NoExecute grace period is valid.",
			toleration: corev1.Toleration{
				Key: "cluster.karmada.io/not-ready", Operator: corev1.TolerationOpEqual, Value: "true",
				Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptrTo[int64](300),
			},
		},
		{
			name:       "A PreferNoSchedule effect is valid.",
			toleration: corev1.Toleration{Key: "spot", Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectPreferNoSchedule},
		},
		{
			name:       "The comparison operator Gt is rejected.",
			toleration: corev1.Toleration{Key: "sla", Operator: corev1.TolerationOpGt, Value: "99"},
			want:       []fieldErr{notSupported(ct + "[0].operator")},
		},
		{
			name:       "The comparison operator Lt is rejected.",
			toleration: corev1.Toleration{Key: "sla", Operator: corev1.TolerationOpLt, Value: "99"},
			want:       []fieldErr{notSupported(ct + "[0].operator")},
		},
		{
			name: "Anything else is accepted, as in Karmada: it only ever fails to match a taint.",
			toleration: corev1.Toleration{
				Key: "bad key", Operator: corev1.TolerationOpExists, Value: "nvidia", Effect: "NoRun", TolerationSeconds: ptrTo[int64](60),
			},
		},
		{
			name:       "An unknown operator is accepted, as in Karmada.",
			toleration: corev1.Toleration{Key: "gpu", Operator: "Like"},
		},
	}
	placementCases := make([]placementCase, 0, len(cases))
	for _, tc := range cases {
		placementCases = append(placementCases, placementCase{
			name: tc.name, placement: policyv1alpha1.Placement{ClusterTolerations: []corev1.Toleration{tc.toleration}}, want: tc.want,
		})
	}
	runPlacementCases(t, placementCases)
}
