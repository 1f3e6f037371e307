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
	"strings"
	"testing"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// defaultedApplicationFailover is application failover as defaulting leaves it.
func defaultedApplicationFailover() *policyv1alpha1.ApplicationFailoverBehavior {
	return &policyv1alpha1.ApplicationFailoverBehavior{
		DecisionConditions: policyv1alpha1.DecisionConditions{TolerationSeconds: ptrTo[int32](300)},
		PurgeMode:          policyv1alpha1.PurgeModeGracefully,
		GracePeriodSeconds: ptrTo[int32](600),
	}
}

func TestValidateFailover(t *testing.T) {
	t.Parallel()
	const app, cluster = "spec.failover.application", "spec.failover.cluster"
	tests := []struct {
		name string
		edit func(*policyv1alpha1.FailoverBehavior)
		want []fieldErr
	}{
		{
			name: "Defaulted application failover is valid.",
			edit: func(*policyv1alpha1.FailoverBehavior) {},
		},
		{
			name: "A negative toleration is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.DecisionConditions.TolerationSeconds = ptrTo[int32](-1)
			},
			want: []fieldErr{invalid(app + ".decisionConditions.tolerationSeconds")},
		},
		{
			name: "A zero toleration, meaning fail over at once, is valid.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.DecisionConditions.TolerationSeconds = ptrTo[int32](0)
			},
		},
		{
			name: "An unknown application purge mode is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.PurgeMode = "Lazily"
				f.Application.GracePeriodSeconds = nil
			},
			want: []fieldErr{notSupported(app + ".purgeMode")},
		},
		{
			name: "The old spelling Graciously is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) { f.Application.PurgeMode = "Graciously" },
			want: []fieldErr{notSupported(app + ".purgeMode"), forbidden(app + ".gracePeriodSeconds")},
		},
		{
			name: "The old spelling Immediately is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.PurgeMode = "Immediately"
				f.Application.GracePeriodSeconds = nil
			},
			want: []fieldErr{notSupported(app + ".purgeMode")},
		},
		{
			name: "Purge mode Never without a grace period is valid.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.PurgeMode = policyv1alpha1.Never
				f.Application.GracePeriodSeconds = nil
			},
		},
		{
			name: "A graceful purge without a grace period is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) { f.Application.GracePeriodSeconds = nil },
			want: []fieldErr{required(app + ".gracePeriodSeconds")},
		},
		{
			name: "A grace period with purge mode Directly is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) { f.Application.PurgeMode = policyv1alpha1.PurgeModeDirectly },
			want: []fieldErr{forbidden(app + ".gracePeriodSeconds")},
		},
		{
			name: "A grace period with purge mode Never is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) { f.Application.PurgeMode = policyv1alpha1.Never },
			want: []fieldErr{forbidden(app + ".gracePeriodSeconds")},
		},
		{
			name: "A zero grace period is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) { f.Application.GracePeriodSeconds = ptrTo[int32](0) },
			want: []fieldErr{invalid(app + ".gracePeriodSeconds")},
		},
		{
			name: "An empty purge mode skips the pairing check but still needs a positive grace period.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.PurgeMode = ""
				f.Application.GracePeriodSeconds = ptrTo[int32](-5)
			},
			want: []fieldErr{invalid(app + ".gracePeriodSeconds")},
		},
		{
			name: "Cluster failover with purge mode Directly is valid.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Cluster = &policyv1alpha1.ClusterFailoverBehavior{PurgeMode: policyv1alpha1.PurgeModeDirectly}
			},
		},
		{
			name: "Cluster failover with purge mode Never is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Cluster = &policyv1alpha1.ClusterFailoverBehavior{PurgeMode: policyv1alpha1.Never}
			},
			want: []fieldErr{notSupported(cluster + ".purgeMode")},
		},
		{
			name: "Cluster failover with the old spelling Graciously is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Cluster = &policyv1alpha1.ClusterFailoverBehavior{PurgeMode: "Graciously"}
			},
			want: []fieldErr{notSupported(cluster + ".purgeMode")},
		},
		{
			name: "State preservation with a prefixed label key and a valid template is valid.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.StatePreservation = &policyv1alpha1.StatePreservation{Rules: []policyv1alpha1.StatePreservationRule{
					{AliasLabelName: "failover.example.com/job-id", JSONPath: "{ .jobStatus.jobID }"},
					{AliasLabelName: "ready", JSONPath: "{.readyReplicas}"},
				}}
			},
		},
		{
			name: "State preservation without a list of rules is rejected.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Cluster = &policyv1alpha1.ClusterFailoverBehavior{StatePreservation: &policyv1alpha1.StatePreservation{}}
			},
			want: []fieldErr{required(cluster + ".statePreservation.rules")},
		},
		{
			name: "State preservation with an empty list of rules is valid.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Cluster = &policyv1alpha1.ClusterFailoverBehavior{StatePreservation: &policyv1alpha1.StatePreservation{
					Rules: []policyv1alpha1.StatePreservationRule{},
				}}
			},
		},
		{
			name: "State preservation rules with bad label keys and empty templates get one error each.",
			edit: func(f *policyv1alpha1.FailoverBehavior) {
				f.Application.StatePreservation = &policyv1alpha1.StatePreservation{Rules: []policyv1alpha1.StatePreservationRule{
					{AliasLabelName: "-starts-with-dash", JSONPath: "{.readyReplicas"},
					{AliasLabelName: "", JSONPath: ""},
					{AliasLabelName: strings.Repeat("a", 64), JSONPath: "{.replicas}"},
				}}
			},
			want: []fieldErr{
				invalid(app + ".statePreservation.rules[0].aliasLabelName"),
				required(app + ".statePreservation.rules[1].aliasLabelName"),
				required(app + ".statePreservation.rules[1].jsonPath"),
				invalid(app + ".statePreservation.rules[2].aliasLabelName"),
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			policy := newPropagationPolicy(func(p *policyv1alpha1.PropagationPolicy) {
				p.Spec.PropagateDeps = true
				p.Spec.Failover = &policyv1alpha1.FailoverBehavior{Application: defaultedApplicationFailover()}
				tc.edit(p.Spec.Failover)
			})
			expectErrors(t, ValidatePropagationPolicy(policy), tc.want)
		})
	}
}
