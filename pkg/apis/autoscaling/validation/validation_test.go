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

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/fielderr"
)

func fhpa(change func(*autoscalingv1alpha1.FederatedHPASpec)) *autoscalingv1alpha1.FederatedHPA {
	f := &autoscalingv1alpha1.FederatedHPA{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: autoscalingv1alpha1.FederatedHPASpec{
			ScaleTargetRef: autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"},
			MinReplicas:    ptr.To[int32](2),
			MaxReplicas:    10,
			Metrics: []autoscalingv2.MetricSpec{{Type: autoscalingv2.ResourceMetricSourceType, Resource: &autoscalingv2.ResourceMetricSource{
				Name: corev1.ResourceCPU, Target: autoscalingv2.MetricTarget{Type: autoscalingv2.UtilizationMetricType, AverageUtilization: ptr.To[int32](50)}}}},
		},
	}
	if change != nil {
		change(&f.Spec)
	}
	return f
}

func TestValidateFederatedHPA(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name string
		fhpa *autoscalingv1alpha1.FederatedHPA
		want []fielderr.Want
	}{
		{name: "A Deployment between 2 and 10 on 50 % CPU is valid.", fhpa: fhpa(nil)},
		{name: "maxReplicas is required.", fhpa: fhpa(func(s *autoscalingv1alpha1.FederatedHPASpec) { s.MaxReplicas = 0 }),
			want: []fielderr.Want{fielderr.Required("spec.maxReplicas"), fielderr.Invalid("spec.maxReplicas")}},
		{name: "maxReplicas below minReplicas is refused.", fhpa: fhpa(func(s *autoscalingv1alpha1.FederatedHPASpec) { s.MaxReplicas = 1 }),
			want: []fielderr.Want{fielderr.Invalid("spec.maxReplicas")}},
		{name: "minReplicas 0 is refused (and scaling to zero would need an Object or External metric).",
			fhpa: fhpa(func(s *autoscalingv1alpha1.FederatedHPASpec) { s.MinReplicas = ptr.To[int32](0) }),
			want: []fielderr.Want{fielderr.Invalid("spec.minReplicas"), fielderr.Forbidden("spec.metrics")}},
		{name: "The scale target needs a kind and a name.", fhpa: fhpa(func(s *autoscalingv1alpha1.FederatedHPASpec) {
			s.ScaleTargetRef = autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1"}
		}), want: []fielderr.Want{fielderr.Required("spec.scaleTargetRef.kind"), fielderr.Required("spec.scaleTargetRef.name")}},
		{name: "A utilization target of a memory metric must be positive.", fhpa: fhpa(func(s *autoscalingv1alpha1.FederatedHPASpec) {
			s.Metrics[0].Resource.Target.AverageUtilization = ptr.To[int32](0)
		}), want: []fielderr.Want{fielderr.Invalid("spec.metrics[0].resource.target.averageUtilization")}},
		{name: "A scale-down policy needs a positive period.", fhpa: fhpa(func(s *autoscalingv1alpha1.FederatedHPASpec) {
			s.Behavior = &autoscalingv2.HorizontalPodAutoscalerBehavior{ScaleDown: &autoscalingv2.HPAScalingRules{
				Policies: []autoscalingv2.HPAScalingPolicy{{Type: autoscalingv2.PodsScalingPolicy, Value: 1}}}}
		}), want: []fielderr.Want{fielderr.Invalid("spec.behavior.scaleDown.policies[0].periodSeconds")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fielderr.Assert(t, ValidateFederatedHPA(tc.fhpa), tc.want...)
		})
	}
}

func cronFHPA(ref autoscalingv2.CrossVersionObjectReference, rules ...autoscalingv1alpha1.CronFederatedHPARule) *autoscalingv1alpha1.CronFederatedHPA {
	return &autoscalingv1alpha1.CronFederatedHPA{ObjectMeta: metav1.ObjectMeta{Name: "web-cron", Namespace: "shop"},
		Spec: autoscalingv1alpha1.CronFederatedHPASpec{ScaleTargetRef: ref, Rules: rules}}
}

var (
	deployment = autoscalingv2.CrossVersionObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Name: "web"}
	federated  = autoscalingv2.CrossVersionObjectReference{APIVersion: "autoscaling.karmada.io/v1alpha1", Kind: "FederatedHPA", Name: "web"}
)

func TestValidateCronFederatedHPA(t *testing.T) {
	t.Parallel()
	six := ptr.To[int32](6)
	cases := []struct {
		name string
		cron *autoscalingv1alpha1.CronFederatedHPA
		want []fielderr.Want
	}{
		{name: "A rule setting a Deployment's replicas every minute is valid.",
			cron: cronFHPA(deployment, autoscalingv1alpha1.CronFederatedHPARule{Name: "up", Schedule: "* * * * *", TargetReplicas: six})},
		{name: "A descriptor, a time zone and history limits are valid.",
			cron: cronFHPA(deployment, autoscalingv1alpha1.CronFederatedHPARule{Name: "up", Schedule: "@hourly", TargetReplicas: six,
				TimeZone: ptr.To("Europe/Paris"), SuccessfulHistoryLimit: ptr.To[int32](32), FailedHistoryLimit: ptr.To[int32](0)})},
		{name: "A rule moving a FederatedHPA's maximum is valid.",
			cron: cronFHPA(federated, autoscalingv1alpha1.CronFederatedHPARule{Name: "peak", Schedule: "0 8 * * 1-5", TargetMaxReplicas: ptr.To[int32](20)})},
		{name: "Six fields, a bad zone, a zone in the schedule and limits out of range are refused.",
			cron: cronFHPA(deployment,
				autoscalingv1alpha1.CronFederatedHPARule{Name: "a", Schedule: "0 * * * * *", TargetReplicas: six, TimeZone: ptr.To("Mars/Olympus")},
				autoscalingv1alpha1.CronFederatedHPARule{Name: "b", Schedule: "CRON_TZ=UTC * * * * *", TargetReplicas: six,
					SuccessfulHistoryLimit: ptr.To[int32](0), FailedHistoryLimit: ptr.To[int32](33)}),
			want: []fielderr.Want{fielderr.Invalid("spec.rules[0].schedule"), fielderr.Invalid("spec.rules[0].timeZone"),
				fielderr.Invalid("spec.rules[1].schedule"), fielderr.Invalid("spec.rules[1].successfulHistoryLimit"),
				fielderr.Invalid("spec.rules[1].failedHistoryLimit")}},
		{name: "Rule names are required, unique and at most 32 characters.",
			cron: cronFHPA(deployment,
				autoscalingv1alpha1.CronFederatedHPARule{Name: "up", Schedule: "* * * * *", TargetReplicas: six},
				autoscalingv1alpha1.CronFederatedHPARule{Name: "up", Schedule: "* * * * *", TargetReplicas: six},
				autoscalingv1alpha1.CronFederatedHPARule{Schedule: "* * * * *", TargetReplicas: six},
				autoscalingv1alpha1.CronFederatedHPARule{Name: "a-name-that-is-longer-than-thirty-two", Schedule: "* * * * *", TargetReplicas: six}),
			want: []fielderr.Want{fielderr.Duplicate("spec.rules[1].name"), fielderr.Required("spec.rules[2].name"), fielderr.TooLong("spec.rules[3].name")}},
		{name: "A template needs targetReplicas, not bounds.",
			cron: cronFHPA(deployment, autoscalingv1alpha1.CronFederatedHPARule{Name: "up", Schedule: "* * * * *", TargetMaxReplicas: six}),
			want: []fielderr.Want{fielderr.Invalid("spec.rules[0]")}},
		{name: "A FederatedHPA needs a bound; bounds must be ordered and not negative.",
			cron: cronFHPA(federated,
				autoscalingv1alpha1.CronFederatedHPARule{Name: "a", Schedule: "* * * * *", TargetReplicas: six},
				autoscalingv1alpha1.CronFederatedHPARule{Name: "b", Schedule: "* * * * *", TargetMinReplicas: ptr.To[int32](7), TargetMaxReplicas: six},
				autoscalingv1alpha1.CronFederatedHPARule{Name: "c", Schedule: "* * * * *", TargetMinReplicas: ptr.To[int32](-1)}),
			want: []fielderr.Want{fielderr.Invalid("spec.rules[0]"), fielderr.Invalid("spec.rules[1].targetMaxReplicas"),
				fielderr.Invalid("spec.rules[2].targetMinReplicas")}},
		{name: "Only a FederatedHPA is scaled in autoscaling.karmada.io; the target needs a kind and a name.",
			cron: cronFHPA(autoscalingv2.CrossVersionObjectReference{APIVersion: "autoscaling.karmada.io/v1alpha1", Kind: "CronFederatedHPA"},
				autoscalingv1alpha1.CronFederatedHPARule{Name: "up", Schedule: "* * * * *", TargetReplicas: six}),
			want: []fielderr.Want{fielderr.Required("spec.scaleTargetRef.name"), fielderr.Invalid("spec.scaleTargetRef.kind")}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			fielderr.Assert(t, ValidateCronFederatedHPA(tc.cron), tc.want...)
		})
	}
}
