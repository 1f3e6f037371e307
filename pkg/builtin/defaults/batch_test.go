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
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

func TestJobDefaults(t *testing.T) {
	t.Parallel()
	bare := func() *batchv1.Job {
		j := &batchv1.Job{ObjectMeta: objectMeta("pi"), Spec: batchv1.JobSpec{Template: bareTemplate()}}
		j.Spec.Template.Spec.RestartPolicy = corev1.RestartPolicyNever
		return j
	}
	full := func() *batchv1.Job {
		j := bare()
		j.Labels = map[string]string{"app": "web"}
		j.Spec.Parallelism = ptr.To[int32](1)
		j.Spec.Completions = ptr.To[int32](1)
		j.Spec.BackoffLimit = ptr.To[int32](6)
		j.Spec.CompletionMode = ptr.To(batchv1.NonIndexedCompletion)
		j.Spec.Suspend = ptr.To(false)
		j.Spec.PodReplacementPolicy = ptr.To(batchv1.TerminatingOrFailed)
		j.Spec.Template = defaultedTemplate(corev1.RestartPolicyNever)
		return j
	}
	cases := []struct {
		name string
		in   func() *batchv1.Job
		want func() *batchv1.Job
	}{
		{name: "A bare job runs one pod once, retries six times and takes its labels from the template.", in: bare, want: full},
		{name: "A job with parallelism but no completions keeps completions unset.",
			in: func() *batchv1.Job {
				j := bare()
				j.Spec.Parallelism = ptr.To[int32](3)
				return j
			},
			want: func() *batchv1.Job {
				j := full()
				j.Spec.Parallelism, j.Spec.Completions = ptr.To[int32](3), nil
				return j
			}},
		{name: "A job with completions but no parallelism gets parallelism 1.",
			in: func() *batchv1.Job {
				j := bare()
				j.Spec.Completions = ptr.To[int32](5)
				return j
			},
			want: func() *batchv1.Job {
				j := full()
				j.Spec.Completions = ptr.To[int32](5)
				return j
			}},
		{name: "A job without a restartPolicy keeps it empty, for validation to reject.",
			in: func() *batchv1.Job {
				j := bare()
				j.Spec.Template.Spec.RestartPolicy = ""
				return j
			},
			want: func() *batchv1.Job {
				j := full()
				j.Spec.Template.Spec.RestartPolicy = ""
				return j
			}},
		{name: "A job with its own labels and a manual selector keeps both as written.",
			in: func() *batchv1.Job {
				j := bare()
				j.Labels = map[string]string{"team": "a"}
				j.Spec.ManualSelector = ptr.To(true)
				j.Spec.Selector = selector
				return j
			},
			want: func() *batchv1.Job {
				j := full()
				j.Labels = map[string]string{"team": "a"}
				j.Spec.ManualSelector = ptr.To(true)
				j.Spec.Selector = selector
				return j
			}},
		{name: "A per-index backoff limit lifts the global one to the maximum.",
			in: func() *batchv1.Job {
				j := bare()
				j.Spec.BackoffLimitPerIndex = ptr.To[int32](2)
				return j
			},
			want: func() *batchv1.Job {
				j := full()
				j.Spec.BackoffLimitPerIndex = ptr.To[int32](2)
				j.Spec.BackoffLimit = ptr.To[int32](2147483647)
				return j
			}},
		{name: "A pod failure policy makes replacement wait for Failed pods and its conditions default to True.",
			in: func() *batchv1.Job {
				j := bare()
				j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
					Action:          batchv1.PodFailurePolicyActionIgnore,
					OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{{Type: corev1.DisruptionTarget}},
				}}}
				return j
			},
			want: func() *batchv1.Job {
				j := full()
				j.Spec.PodReplacementPolicy = ptr.To(batchv1.Failed)
				j.Spec.PodFailurePolicy = &batchv1.PodFailurePolicy{Rules: []batchv1.PodFailurePolicyRule{{
					Action: batchv1.PodFailurePolicyActionIgnore,
					OnPodConditions: []batchv1.PodFailurePolicyOnPodConditionsPattern{
						{Type: corev1.DisruptionTarget, Status: corev1.ConditionTrue}},
				}}}
				return j
			}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			assertDefaulted(t, tc.in(), tc.want(), Job)
		})
	}
}

func TestJobLabelsAreCopiedNotShared(t *testing.T) {
	t.Parallel()
	j := &batchv1.Job{Spec: batchv1.JobSpec{Template: bareTemplate()}}
	Job(j)
	j.Labels["extra"] = "x"
	if _, shared := j.Spec.Template.Labels["extra"]; shared {
		t.Fatal("the job's labels alias the template's labels")
	}
}
