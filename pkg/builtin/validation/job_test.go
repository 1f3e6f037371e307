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

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/utils/ptr"
)

func TestValidateJob(t *testing.T) {
	t.Parallel()
	const rules = "spec.podFailurePolicy.rules[0]"
	failurePolicy := func(r ...batchv1.PodFailurePolicyRule) func(*batchv1.Job) {
		return func(j *batchv1.Job) {
			j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: r}
			j.Spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
		}
	}
	runCases(t, validJob, ValidateJob, []testCase[*batchv1.Job]{
		{name: "A defaulted job without a selector is valid, the member cluster generates one.", mutate: noChange[*batchv1.Job]},
		{name: "A job restarting OnFailure with a deadline and a TTL is valid.", mutate: func(j *batchv1.Job) {
			j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
			j.Spec.ActiveDeadlineSeconds = ptr.To[int64](600)
			j.Spec.TTLSecondsAfterFinished = ptr.To[int32](0)
		}},
		{name: "A job with a manual selector matching its template is valid.", mutate: func(j *batchv1.Job) {
			j.Spec.ManualSelector, j.Spec.Selector = ptr.To(true), webSelector()
		}},
		{name: "A job with a manual selector but no selector is missing it.", mutate: func(j *batchv1.Job) {
			j.Spec.ManualSelector = ptr.To(true)
		}, want: []wantErr{required("spec.selector")}},
		{name: "A selector that does not match the template is reported at the template labels.", mutate: func(j *batchv1.Job) {
			j.Spec.Selector = &metav1.LabelSelector{MatchLabels: map[string]string{"app": "batch"}}
		}, want: []wantErr{invalid("spec.template.metadata.labels")}},
		{name: "A job whose pods restart Always is not supported.", mutate: func(j *batchv1.Job) {
			j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyAlways
		}, want: []wantErr{notSupported("spec.template.spec.restartPolicy")}},
		{name: "A job without a restartPolicy must choose one.", mutate: func(j *batchv1.Job) {
			j.Spec.Template.Spec.RestartPolicy = ""
		}, want: []wantErr{required("spec.template.spec.restartPolicy")}},
		{name: "A job's pods may have a deadline, but a positive one.", mutate: func(j *batchv1.Job) {
			j.Spec.Template.Spec.ActiveDeadlineSeconds = ptr.To[int64](0)
		}, want: []wantErr{invalid("spec.template.spec.activeDeadlineSeconds")}},
		{name: "Negative counts and a zero deadline are invalid.", mutate: func(j *batchv1.Job) {
			j.Spec.Parallelism, j.Spec.Completions, j.Spec.BackoffLimit = ptr.To[int32](-1), ptr.To[int32](-1), ptr.To[int32](-1)
			j.Spec.TTLSecondsAfterFinished, j.Spec.ActiveDeadlineSeconds = ptr.To[int32](-1), ptr.To[int64](0)
		}, want: []wantErr{
			invalid("spec.parallelism"), invalid("spec.completions"), invalid("spec.backoffLimit"),
			invalid("spec.ttlSecondsAfterFinished"), invalid("spec.activeDeadlineSeconds"),
		}},
		{name: "An unknown completion mode is not supported.", mutate: func(j *batchv1.Job) {
			j.Spec.CompletionMode = ptr.To[batchv1.CompletionMode]("Ordered")
		}, want: []wantErr{notSupported("spec.completionMode")}},
		{name: "An Indexed job needs completions.", mutate: func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.Completions = ptr.To(batchv1.IndexedCompletion), nil
		}, want: []wantErr{required("spec.completions")}},
		{name: "An Indexed job with per-index limits and a failed index budget is valid.", mutate: func(j *batchv1.Job) {
			j.Spec.CompletionMode, j.Spec.Completions = ptr.To(batchv1.IndexedCompletion), ptr.To[int32](4)
			j.Spec.BackoffLimitPerIndex, j.Spec.MaxFailedIndexes = ptr.To[int32](1), ptr.To[int32](2)
		}},
		{name: "Per-index limits need an Indexed job.", mutate: func(j *batchv1.Job) {
			j.Spec.BackoffLimitPerIndex = ptr.To[int32](1)
		}, want: []wantErr{forbidden("spec.backoffLimitPerIndex")}},
		{name: "A failed index budget needs per-index limits and may not exceed completions.", mutate: func(j *batchv1.Job) {
			j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
			j.Spec.MaxFailedIndexes = ptr.To[int32](2)
		}, want: []wantErr{required("spec.backoffLimitPerIndex"), invalid("spec.maxFailedIndexes")}},
		{name: "An unknown pod replacement policy is not supported.", mutate: func(j *batchv1.Job) {
			j.Spec.PodReplacementPolicy = ptr.To[batchv1.PodReplacementPolicy]("Never")
		}, want: []wantErr{notSupported("spec.podReplacementPolicy")}},
		{name: "A pod failure policy with an exit code rule and a condition rule is valid.", mutate: failurePolicy(
			batchv1.PodFailurePolicyRule{Action: batchv1.PodFailurePolicyActionFailJob, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{
				Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{42}}},
			batchv1.PodFailurePolicyRule{Action: batchv1.PodFailurePolicyActionIgnore, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{
				{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}}})},
		{name: "A pod failure policy needs pods that restart Never and replacement of Failed pods only.", mutate: func(j *batchv1.Job) {
			failurePolicy(batchv1.PodFailurePolicyRule{Action: batchv1.PodFailurePolicyActionCount,
				OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpNotIn, Values: []int32{0}}})(j)
			j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyOnFailure
			j.Spec.PodReplacementPolicy = ptr.To(batchv1.TerminatingOrFailed)
		}, want: []wantErr{invalid("spec.template.spec.restartPolicy"), notSupported("spec.podReplacementPolicy")}},
		{name: "A rule without a matcher and with an unknown action is reported twice.", mutate: failurePolicy(
			batchv1.PodFailurePolicyRule{Action: "Retry"}),
			want: []wantErr{notSupported(rules + ".action"), required(rules)}},
		{name: "A rule with both matchers forbids the conditions.", mutate: failurePolicy(batchv1.PodFailurePolicyRule{
			Action:          batchv1.PodFailurePolicyActionFailJob,
			OnExitCodes:     &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{1}},
			OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}}}),
			want: []wantErr{forbidden(rules + ".onPodConditions")}},
		{name: "Incomplete exit code and condition matchers are reported per field.", mutate: failurePolicy(
			batchv1.PodFailurePolicyRule{Action: batchv1.PodFailurePolicyActionFailIndex, OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: "Equals"}},
			batchv1.PodFailurePolicyRule{Action: batchv1.PodFailurePolicyActionIgnore, OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Status: "Maybe"}}}),
			want: []wantErr{
				invalid(rules + ".action"), notSupported(rules + ".onExitCodes.operator"), required(rules + ".onExitCodes.values"),
				required("spec.podFailurePolicy.rules[1].onPodConditions[0].type"),
				notSupported("spec.podFailurePolicy.rules[1].onPodConditions[0].status"),
			}},
		{name: "A managedBy that is a domain-prefixed path is valid.", mutate: func(j *batchv1.Job) {
			j.Spec.ManagedBy = ptr.To("kueue.x-k8s.io/multikueue")
		}},
		{name: "A managedBy longer than 63 characters is too long.", mutate: func(j *batchv1.Job) {
			j.Spec.ManagedBy = ptr.To("example.com/" + strings.Repeat("a", 60))
		}, want: []wantErr{fe(field.ErrorTypeTooLong, "spec.managedBy")}},
		{name: "A managedBy without a domain prefix is invalid.", mutate: func(j *batchv1.Job) {
			j.Spec.ManagedBy = ptr.To("controller")
		}, want: []wantErr{invalid("spec.managedBy")}},
	})
}

func TestValidateJobUpdate(t *testing.T) {
	t.Parallel()
	suspended := func() *batchv1.Job {
		j := validJob()
		j.Spec.Suspend = ptr.To(true)
		return j
	}
	indexed := func() *batchv1.Job {
		j := validJob()
		j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
		j.Spec.Completions, j.Spec.Parallelism = ptr.To[int32](3), ptr.To[int32](3)
		return j
	}
	runUpdateCases(t, validJob, ValidateJobUpdate, []updateCase[*batchv1.Job]{
		{name: "Changing parallelism, the deadline and suspend is valid.", mutate: func(j, _ *batchv1.Job) {
			j.Spec.Parallelism, j.Spec.ActiveDeadlineSeconds, j.Spec.Suspend = ptr.To[int32](4), ptr.To[int64](60), ptr.To(true)
		}},
		{name: "Changing completions, mode, selector, failure policy, per-index limit and managedBy is invalid at each field.", mutate: func(j, _ *batchv1.Job) {
			j.Spec.Completions = ptr.To[int32](2)
			j.Spec.CompletionMode = ptr.To(batchv1.IndexedCompletion)
			j.Spec.Selector = webSelector()
			j.Spec.BackoffLimitPerIndex = ptr.To[int32](1)
			j.Spec.ManagedBy = ptr.To("example.com/ctrl")
			j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{Action: batchv1.PodFailurePolicyActionFailJob,
				OnExitCodes: &batchv1.PodFailurePolicyOnExitCodesRequirement{Operator: batchv1.PodFailurePolicyOnExitCodesOpIn, Values: []int32{1}}}}}
			j.Spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
		}, want: []wantErr{
			invalid("spec.completions"), invalid("spec.completionMode"), invalid("spec.selector"),
			invalid("spec.backoffLimitPerIndex"), invalid("spec.managedBy"), invalid("spec.podFailurePolicy"),
		}},
		{name: "Changing the image of a running job is invalid.", mutate: func(j, _ *batchv1.Job) {
			j.Spec.Template.Spec.Containers[0].Image = "perl:5.40"
		}, want: []wantErr{invalid("spec.template")}},
		{name: "Changing scheduling directives of a running job is invalid.", mutate: func(j, _ *batchv1.Job) {
			j.Spec.Template.Spec.NodeSelector = map[string]string{"zone": "a"}
		}, want: []wantErr{invalid("spec.template")}},
	})
	runUpdateCases(t, suspended, ValidateJobUpdate, []updateCase[*batchv1.Job]{
		{name: "A suspended job that never started may change labels, annotations and scheduling directives of its pods.", mutate: func(j, _ *batchv1.Job) {
			tmpl := &j.Spec.Template
			tmpl.Labels["queue"] = "a"
			tmpl.Annotations = map[string]string{"note": "x"}
			tmpl.Spec.NodeSelector = map[string]string{"zone": "a"}
			tmpl.Spec.Tolerations = []corev1.Toleration{{Key: "gpu", Operator: corev1.TolerationOpExists}}
			tmpl.Spec.Affinity = &corev1.Affinity{}
			tmpl.Spec.SchedulingGates = []corev1.PodSchedulingGate{{Name: "example.com/wait"}}
		}},
		{name: "A suspended job still may not change its containers.", mutate: func(j, _ *batchv1.Job) {
			j.Spec.Template.Spec.Containers[0].Image = "perl:5.40"
		}, want: []wantErr{invalid("spec.template")}},
		{name: "A suspended job that already started may not change scheduling directives.", mutate: func(j, old *batchv1.Job) {
			old.Status.StartTime = &metav1.Time{}
			j.Spec.Template.Spec.NodeSelector = map[string]string{"zone": "a"}
		}, want: []wantErr{invalid("spec.template")}},
	})
	runUpdateCases(t, indexed, ValidateJobUpdate, []updateCase[*batchv1.Job]{
		{name: "An elastic Indexed job may scale completions together with parallelism.", mutate: func(j, _ *batchv1.Job) {
			j.Spec.Completions, j.Spec.Parallelism = ptr.To[int32](5), ptr.To[int32](5)
		}},
		{name: "An Indexed job may not change completions alone.", mutate: func(j, _ *batchv1.Job) {
			j.Spec.Completions = ptr.To[int32](5)
		}, want: []wantErr{invalid("spec.completions")}},
	})
}
