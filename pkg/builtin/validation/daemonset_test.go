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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/utils/ptr"
)

func TestValidateDaemonSet(t *testing.T) {
	t.Parallel()
	const ru = "spec.updateStrategy.rollingUpdate"
	rolling := func(unavailable, surge intstr.IntOrString) func(*appsv1.DaemonSet) {
		return func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateDaemonSet{MaxUnavailable: &unavailable, MaxSurge: &surge}
		}
	}
	runCases(t, validDaemonSet, ValidateDaemonSet, []testCase[*appsv1.DaemonSet]{
		{name: "A defaulted daemonset is valid.", mutate: noChange[*appsv1.DaemonSet]},
		{name: "A daemonset surging 10% with no pod unavailable is valid.", mutate: rolling(intstr.FromInt32(0), intstr.FromString("10%"))},
		{name: "An OnDelete daemonset without rolling parameters is valid.", mutate: func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: appsv1.OnDeleteDaemonSetStrategyType}
		}},
		{name: "A daemonset without a selector is rejected.", mutate: func(ds *appsv1.DaemonSet) { ds.Spec.Selector = nil },
			want: []wantErr{required("spec.selector")}},
		{name: "A daemonset's pods may not have a deadline.", mutate: func(ds *appsv1.DaemonSet) {
			ds.Spec.Template.Spec.ActiveDeadlineSeconds = ptr.To[int64](10)
		}, want: []wantErr{forbidden("spec.template.spec.activeDeadlineSeconds")}},
		{name: "An unknown update strategy is not supported.", mutate: func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy = appsv1.DaemonSetUpdateStrategy{Type: "Rolling"}
		}, want: []wantErr{notSupported("spec.updateStrategy.type")}},
		{name: "An OnDelete daemonset with left-over rolling parameters is valid, they are ignored.", mutate: func(ds *appsv1.DaemonSet) {
			ds.Spec.UpdateStrategy.Type = appsv1.OnDeleteDaemonSetStrategyType
		}},
		{name: "A RollingUpdate daemonset needs its parameters.", mutate: func(ds *appsv1.DaemonSet) { ds.Spec.UpdateStrategy.RollingUpdate = nil },
			want: []wantErr{required(ru)}},
		{name: "Surging while also taking pods down is invalid at maxSurge.", mutate: rolling(intstr.FromInt32(1), intstr.FromInt32(1)),
			want: []wantErr{invalid(ru + ".maxSurge")}},
		{name: "Neither surging nor taking pods down is invalid at maxUnavailable.", mutate: rolling(intstr.FromInt32(0), intstr.FromInt32(0)),
			want: []wantErr{invalid(ru + ".maxUnavailable")}},
		{name: "Percentages above 100% and negative counts are invalid.", mutate: rolling(intstr.FromString("120%"), intstr.FromInt32(-1)),
			want: []wantErr{invalid(ru + ".maxUnavailable"), invalid(ru + ".maxSurge"), invalid(ru + ".maxSurge")}},
		{name: "Negative minReadySeconds and revisionHistoryLimit are invalid.", mutate: func(ds *appsv1.DaemonSet) {
			ds.Spec.MinReadySeconds, ds.Spec.RevisionHistoryLimit = -1, ptr.To[int32](-1)
		}, want: []wantErr{invalid("spec.minReadySeconds"), invalid("spec.revisionHistoryLimit")}},
	})
}

func TestValidateDaemonSetUpdate(t *testing.T) {
	t.Parallel()
	runUpdateCases(t, validDaemonSet, ValidateDaemonSetUpdate, []updateCase[*appsv1.DaemonSet]{
		{name: "A new image is a valid daemonset update.", mutate: func(ds, _ *appsv1.DaemonSet) {
			ds.Spec.Template.Spec.Containers[0].Image = "nginx:1.28"
		}},
		{name: "Changing a daemonset's selector is invalid.", mutate: func(ds, _ *appsv1.DaemonSet) {
			ds.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"tier": "front"}}
		}, want: []wantErr{invalid("spec.selector")}},
	})
}
