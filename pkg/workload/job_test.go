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
	"time"

	"github.com/google/go-cmp/cmp"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// at is a time on the day members run the Job.
func at(hour, minute int) *metav1.Time {
	t := metav1.NewTime(time.Date(2025, 3, 1, hour, minute, 0, 0, time.UTC))
	return &t
}

func jobCondition(t batchv1.JobConditionType, reason string) batchv1.JobCondition {
	return batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue, Reason: reason}
}

// running is a member Job with active pods, ready of them ready, that
// started at start.
func running(active, ready, succeeded, failed int32, start *metav1.Time) *JobStatus {
	return &JobStatus{Active: active, Ready: ptr(ready), Terminating: ptr[int32](0), Succeeded: succeeded, Failed: failed, StartTime: start}
}

// completed is a member Job that completed at done.
func completed(succeeded int32, start, done *metav1.Time) *JobStatus {
	return &JobStatus{Succeeded: succeeded, Ready: ptr[int32](0), Terminating: ptr[int32](0), StartTime: start, CompletionTime: done,
		Conditions: []batchv1.JobCondition{jobCondition(batchv1.JobSuccessCriteriaMet, "CompletionsReached"), jobCondition(batchv1.JobComplete, "CompletionsReached")}}
}

// failedWith is a member Job that failed for reason.
func failedWith(reason string, failed int32, start *metav1.Time) *JobStatus {
	return &JobStatus{Failed: failed, Ready: ptr[int32](0), Terminating: ptr[int32](0), StartTime: start,
		Conditions: []batchv1.JobCondition{jobCondition(batchv1.JobFailureTarget, reason), jobCondition(batchv1.JobFailed, reason)}}
}

// failing is a member Job that is going to fail for reason and still
// terminates pods.
func failing(reason string, terminating int32, start *metav1.Time) *JobStatus {
	return &JobStatus{Failed: 1, Ready: ptr[int32](0), Terminating: ptr(terminating), StartTime: start,
		Conditions: []batchv1.JobCondition{jobCondition(batchv1.JobFailureTarget, reason)}}
}

// aggregatedJobCondition is a Job condition set at aggregatedAt.
func aggregatedJobCondition(t batchv1.JobConditionType, reason, message string) batchv1.JobCondition {
	return batchv1.JobCondition{Type: t, Status: corev1.ConditionTrue, Reason: reason, Message: message,
		LastProbeTime: aggregatedAt, LastTransitionTime: aggregatedAt}
}

var jobDone = []batchv1.JobCondition{
	aggregatedJobCondition(batchv1.JobSuccessCriteriaMet, "CompletionsReached", "The Job completed in every member cluster."),
	aggregatedJobCondition(batchv1.JobComplete, "CompletionsReached", "The Job completed in every member cluster."),
}

// jobFailedIn is FailureTarget, and Failed when finished, for a Job that
// failed for reason in clusters.
func jobFailedIn(reason, clusters string, finished bool) []batchv1.JobCondition {
	msg := "The Job failed in cluster(s) " + clusters + "."
	out := []batchv1.JobCondition{aggregatedJobCondition(batchv1.JobFailureTarget, reason, msg)}
	if finished {
		out = append(out, aggregatedJobCondition(batchv1.JobFailed, reason, msg))
	}
	return out
}

func TestAggregateStatusOfJob(t *testing.T) {
	t.Parallel()
	recordedTarget := batchv1.JobCondition{Type: batchv1.JobFailureTarget, Status: corev1.ConditionTrue, Reason: "BackoffLimitExceeded",
		Message: "The Job failed in cluster(s) m3.", LastProbeTime: earlier, LastTransitionTime: muchEarlier}
	cases := []struct {
		name     string
		suspend  bool
		recorded batchv1.JobStatus
		items    func(t *testing.T) []workv1alpha2.AggregatedStatusItem
		want     batchv1.JobStatus
	}{
		{
			name: "Pod counts add up and startTime is the earliest member's while members still run.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", running(2, 1, 1, 0, at(8, 5))), report(t, "m2", running(1, 1, 0, 1, at(8, 0)))}
			},
			want: batchv1.JobStatus{Active: 3, Ready: ptr[int32](2), Terminating: ptr[int32](0), Succeeded: 1, Failed: 1, StartTime: at(8, 0)},
		},
		{
			name: "A Job complete in every member meets its success criteria, then completes when the last member did.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", completed(2, at(8, 5), at(9, 0))), report(t, "m2", completed(3, at(8, 0), at(9, 30)))}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](0), Succeeded: 5, StartTime: at(8, 0), CompletionTime: at(9, 30),
				Conditions: jobDone},
		},
		{
			name: "A Job complete in some members only is not complete and has no completionTime.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", completed(2, at(8, 5), at(9, 0))), report(t, "m2", running(1, 0, 0, 0, at(8, 10)))}
			},
			want: batchv1.JobStatus{Active: 1, Ready: ptr[int32](0), Terminating: ptr[int32](0), Succeeded: 2, StartTime: at(8, 5)},
		},
		{
			name: "A member that has not reported holds Complete back.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", completed(2, at(8, 5), at(9, 0))), report(t, "m2", nil)}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](0), Succeeded: 2, StartTime: at(8, 5)},
		},
		{
			name: "A failed member makes FailureTarget True, naming it, while other members still run pods; Failed waits for them.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", failedWith("BackoffLimitExceeded", 6, at(8, 0))), report(t, "m2", running(1, 1, 0, 0, at(8, 5)))}
			},
			want: batchv1.JobStatus{Active: 1, Ready: ptr[int32](1), Terminating: ptr[int32](0), Failed: 6, StartTime: at(8, 0),
				Conditions: jobFailedIn("BackoffLimitExceeded", "m1", false)},
		},
		{
			name: "Failed follows FailureTarget once no member runs pods, with the first failing member's reason, naming every failing member and never Complete.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{
					report(t, "m3", failedWith("BackoffLimitExceeded", 2, at(8, 0))),
					report(t, "m2", completed(1, at(8, 0), at(9, 0))),
					report(t, "m1", failedWith("DeadlineExceeded", 1, at(8, 0))),
				}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](0), Succeeded: 1, Failed: 3, StartTime: at(8, 0),
				Conditions: jobFailedIn("DeadlineExceeded", "m1, m3", true)},
		},
		{
			name: "A member going to fail but still terminating pods holds Failed back.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", failing("PodFailurePolicy", 2, at(8, 0)))}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](2), Failed: 1, StartTime: at(8, 0),
				Conditions: jobFailedIn("PodFailurePolicy", "m1", false)},
		},
		{
			name:     "succeeded and failed never go down when a member leaves the placement, and rise with the members' sum.",
			recorded: batchv1.JobStatus{Succeeded: 5, Failed: 2, StartTime: at(8, 0)},
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", running(1, 1, 1, 3, at(8, 0)))}
			},
			want: batchv1.JobStatus{Active: 1, Ready: ptr[int32](1), Terminating: ptr[int32](0), Succeeded: 5, Failed: 3, StartTime: at(8, 0)},
		},
		{
			name:     "A FailureTarget the template records stays, with its times, after the failing member left, and the Job fails once the others finish.",
			recorded: batchv1.JobStatus{Failed: 2, StartTime: at(8, 0), Conditions: []batchv1.JobCondition{recordedTarget}},
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", completed(1, at(8, 0), at(9, 0)))}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](0), Succeeded: 1, Failed: 2, StartTime: at(8, 0),
				Conditions: []batchv1.JobCondition{recordedTarget,
					aggregatedJobCondition(batchv1.JobFailed, "BackoffLimitExceeded", "The Job failed in cluster(s) m3.")}},
		},
		{
			name: "A finished Job keeps its status whatever members report.",
			recorded: batchv1.JobStatus{Succeeded: 4, StartTime: at(8, 0), CompletionTime: at(9, 0), Conditions: []batchv1.JobCondition{
				{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: muchEarlier},
				{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: muchEarlier},
			}},
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", running(3, 3, 0, 0, at(10, 0)))}
			},
			want: batchv1.JobStatus{Succeeded: 4, StartTime: at(8, 0), CompletionTime: at(9, 0), Conditions: []batchv1.JobCondition{
				{Type: batchv1.JobSuccessCriteriaMet, Status: corev1.ConditionTrue, LastTransitionTime: muchEarlier},
				{Type: batchv1.JobComplete, Status: corev1.ConditionTrue, LastTransitionTime: muchEarlier},
			}},
		},
		{
			name:     "The startTime the template records stays while the Job is not suspended, and completionTime is never before it.",
			recorded: batchv1.JobStatus{StartTime: at(9, 45)},
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", completed(1, at(8, 0), at(9, 30)))}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](0), Succeeded: 1, StartTime: at(9, 45), CompletionTime: at(9, 45),
				Conditions: jobDone},
		},
		{
			name:     "A suspended Job takes its members' startTime, none while they are suspended too.",
			suspend:  true,
			recorded: batchv1.JobStatus{StartTime: at(8, 0)},
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", running(0, 0, 0, 0, nil))}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](0)},
		},
		{
			name: "A member complete without completionTime completes the Job now.",
			items: func(t *testing.T) []workv1alpha2.AggregatedStatusItem {
				return []workv1alpha2.AggregatedStatusItem{report(t, "m1", completed(1, at(8, 0), nil))}
			},
			want: batchv1.JobStatus{Ready: ptr[int32](0), Terminating: ptr[int32](0), Succeeded: 1, StartTime: at(8, 0), CompletionTime: &aggregatedAt,
				Conditions: jobDone},
		},
		{
			name:  "A Job placed in no member cluster has an empty status.",
			items: func(*testing.T) []workv1alpha2.AggregatedStatusItem { return nil },
			want:  batchv1.JobStatus{},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			j := job(ptr[int32](2), ptr[int32](4))
			j.Spec.Suspend = ptr(tc.suspend)
			j.Status = tc.recorded
			got := aggregateAs[batchv1.JobStatus](t, object(t, "batch/v1", "Job", j), tc.items(t))
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("status differs (-want +got):\n%s", diff)
			}
		})
	}
}

func TestHealthOfJob(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name       string
		conditions []batchv1.JobCondition
		want       workv1alpha2.ResourceHealth
	}{
		{name: "A running Job is healthy.", want: workv1alpha2.ResourceHealthy},
		{
			name:       "A complete Job is healthy.",
			conditions: completed(1, at(8, 0), at(9, 0)).Conditions,
			want:       workv1alpha2.ResourceHealthy,
		},
		{
			name:       "A failed Job is unhealthy.",
			conditions: failedWith("BackoffLimitExceeded", 1, nil).Conditions,
			want:       workv1alpha2.ResourceUnhealthy,
		},
		{
			name:       "A Job going to fail is healthy until it has failed.",
			conditions: failing("PodFailurePolicy", 1, nil).Conditions,
			want:       workv1alpha2.ResourceHealthy,
		},
		{
			name:       "A Failed condition that is False is no failure.",
			conditions: []batchv1.JobCondition{{Type: batchv1.JobFailed, Status: corev1.ConditionFalse}},
			want:       workv1alpha2.ResourceHealthy,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			j := job(nil, nil)
			j.Status.Conditions = tc.conditions
			if got := Health(object(t, "batch/v1", "Job", j)); got != tc.want {
				t.Errorf("Health = %s, want %s", got, tc.want)
			}
		})
	}
}

func TestReflectStatusOfJob(t *testing.T) {
	t.Parallel()
	j := job(nil, nil)
	j.Status = batchv1.JobStatus{
		Active: 1, Succeeded: 2, Failed: 3, Ready: ptr[int32](1), Terminating: ptr[int32](1), StartTime: at(8, 0),
		CompletedIndexes: "0-1", FailedIndexes: ptr("2"),
		UncountedTerminatedPods: &batchv1.UncountedTerminatedPods{Succeeded: []types.UID{"a"}},
		Conditions:              []batchv1.JobCondition{jobCondition(batchv1.JobFailureTarget, "PodFailurePolicy")},
	}
	want := JobStatus{Active: 1, Succeeded: 2, Failed: 3, Ready: ptr[int32](1), Terminating: ptr[int32](1), StartTime: at(8, 0),
		Conditions: []batchv1.JobCondition{jobCondition(batchv1.JobFailureTarget, "PodFailurePolicy")}}
	t.Run("A Job records its pod counts, times and conditions, and neither its uncounted terminated pods nor its indexes.", func(t *testing.T) {
		t.Parallel()
		got, fields := reflectAs[JobStatus](t, object(t, "batch/v1", "Job", j))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("status differs (-want +got):\n%s", diff)
		}
		for _, f := range []string{"uncountedTerminatedPods", "completedIndexes", "failedIndexes"} {
			if _, ok := fields[f]; ok {
				t.Errorf("status carries %s, which mco does not collect", f)
			}
		}
	})
}
