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
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// JobStatus is what mco collects of a Job in a member cluster: its pod
// counts, start and completion times and conditions. Uncounted terminated
// pods and indexes are left out.
type JobStatus struct {
	Active         int32                  `json:"active,omitempty"`
	Succeeded      int32                  `json:"succeeded,omitempty"`
	Failed         int32                  `json:"failed,omitempty"`
	Ready          *int32                 `json:"ready,omitempty"`
	Terminating    *int32                 `json:"terminating,omitempty"`
	StartTime      *metav1.Time           `json:"startTime,omitempty"`
	CompletionTime *metav1.Time           `json:"completionTime,omitempty"`
	Conditions     []batchv1.JobCondition `json:"conditions,omitempty"`
}

func reflectJob(j *batchv1.Job, _ int64) any {
	st := j.Status
	return JobStatus{
		Active: st.Active, Succeeded: st.Succeeded, Failed: st.Failed, Ready: st.Ready, Terminating: st.Terminating,
		StartTime: st.StartTime, CompletionTime: st.CompletionTime, Conditions: st.Conditions,
	}
}

// jobHealthy is Karmada's rule: a Job is unhealthy once it has failed.
func jobHealthy(j *batchv1.Job) bool {
	return !isTrue(fromJobConditions(j.Status.Conditions), string(batchv1.JobFailed))
}

// aggregateJob sums the members' pod counts and decides the Job's
// conditions (see jobConditions), writing only what kube-apiserver's Job
// status validation accepts:
//   - A finished Job (Complete or Failed) keeps its status: terminal
//     conditions, completionTime and counters may not change any more.
//   - succeeded and failed never go down: each is the larger of what the
//     template records and the members' sum. When a member leaves the
//     placement its pods thus stay counted; as AggregateStatus keeps no
//     history but the template's status, they are counted only until the
//     remaining members' sum passes the recorded count, which then
//     undercounts by at most what the departed member had.
//   - startTime is the earliest member's and, once set, stays while the Job
//     is not suspended; completionTime is the latest member's, set only
//     with Complete and never before startTime.
func aggregateJob(j *batchv1.Job, members []member[JobStatus], now metav1.Time) batchv1.JobStatus {
	recorded := fromJobConditions(j.Status.Conditions)
	if isTrue(recorded, string(batchv1.JobComplete)) || isTrue(recorded, string(batchv1.JobFailed)) {
		return j.Status
	}
	t := tallyJob(members)
	out := batchv1.JobStatus{
		Active: t.active, Ready: t.ready, Terminating: t.terminating, StartTime: t.start,
		Succeeded: max(j.Status.Succeeded, t.succeeded), Failed: max(j.Status.Failed, t.failed),
	}
	if j.Status.StartTime != nil && (j.Spec.Suspend == nil || !*j.Spec.Suspend) {
		out.StartTime = j.Status.StartTime
	}
	next := jobConditions(recorded, t)
	complete := isTrue(next, string(batchv1.JobComplete))
	if complete {
		out.CompletionTime = t.completion
		if out.CompletionTime == nil {
			out.CompletionTime = &now
		}
	}
	if complete || isTrue(next, string(batchv1.JobFailed)) {
		out.StartTime, out.CompletionTime = finishedTimes(out.StartTime, out.CompletionTime, now)
	}
	out.Conditions = toJobConditions(stampAll(recorded, next, now))
	return out
}

// finishedTimes makes the times of a finished Job valid: a start time is
// required (the completion time, or now, stands in) and the completion, if
// any, is not before it.
func finishedTimes(start, completion *metav1.Time, now metav1.Time) (*metav1.Time, *metav1.Time) {
	if start == nil {
		start = completion
		if start == nil {
			start = &now
		}
	}
	if completion != nil && completion.Before(start) {
		completion = start
	}
	return start, completion
}

// jobTally is what the members of a Job report, added up.
type jobTally struct {
	active, succeeded, failed int32
	ready, terminating        *int32
	start, completion         *metav1.Time // earliest start, latest completion
	complete                  []string     // clusters where the Job is Complete
	failing                   []string     // clusters where the Job failed or is failing
	failReason                string       // reason given by the first failing cluster
	unfinished                []string     // clusters neither Complete nor Failed, or not reporting
}

func tallyJob(members []member[JobStatus]) jobTally {
	var t jobTally
	for _, m := range members {
		s := m.status
		if s == nil {
			t.unfinished = append(t.unfinished, m.cluster)
			continue
		}
		t.active += s.Active
		t.succeeded += s.Succeeded
		t.failed += s.Failed
		t.ready = addOptional(t.ready, s.Ready)
		t.terminating = addOptional(t.terminating, s.Terminating)
		if s.StartTime != nil && (t.start == nil || s.StartTime.Before(t.start)) {
			t.start = s.StartTime
		}
		if s.CompletionTime != nil && (t.completion == nil || t.completion.Before(s.CompletionTime)) {
			t.completion = s.CompletionTime
		}
		cs := fromJobConditions(s.Conditions)
		failed, target := findTrue(cs, string(batchv1.JobFailed)), findTrue(cs, string(batchv1.JobFailureTarget))
		if failed != nil || target != nil {
			if len(t.failing) == 0 {
				t.failReason = firstReason(failed, target)
			}
			t.failing = append(t.failing, m.cluster)
		}
		switch {
		case failed != nil: // finished, and counted as failing above
		case isTrue(cs, string(batchv1.JobComplete)):
			t.complete = append(t.complete, m.cluster)
		default:
			t.unfinished = append(t.unfinished, m.cluster)
		}
	}
	return t
}

// Reason and message of the conditions of a Job that completed everywhere.
const (
	jobCompletedReason  = "CompletionsReached"
	jobCompletedMessage = "The Job completed in every member cluster."
	jobFailedReason     = "JobFailedInMemberCluster" // when the failing member gives no reason
)

// jobConditions decides the Job's conditions in the order the Job
// controller adds them, so that a terminal condition is always preceded by
// the one kube-apiserver requires with it:
//   - FailureTarget is True once any member has failed or is failing,
//     naming them, and stays True (the apiserver refuses to withdraw it).
//     Failed follows it once no member runs or terminates pods any more,
//     as a finished Job may have no active pods.
//   - Otherwise, when every member is Complete, SuccessCriteriaMet and
//     then Complete are True.
//
// Complete and Failed are never both True: a failing member rules out
// Complete.
func jobConditions(recorded []condition, t jobTally) []condition {
	idle := t.active == 0 && (t.terminating == nil || *t.terminating == 0) && len(t.unfinished) == 0
	target := findTrue(recorded, string(batchv1.JobFailureTarget))
	switch {
	case len(t.failing) > 0 || target != nil:
		ft := condition{Type: string(batchv1.JobFailureTarget), Status: corev1.ConditionTrue}
		if len(t.failing) > 0 {
			ft.Reason, ft.Message = t.failReason, "The Job failed "+inClusters(t.failing)
		} else {
			ft.Reason, ft.Message = target.Reason, target.Message
		}
		out := []condition{ft}
		if idle {
			failed := ft
			failed.Type = string(batchv1.JobFailed)
			out = append(out, failed)
		}
		return out
	case idle && len(t.complete) > 0:
		met := condition{Type: string(batchv1.JobSuccessCriteriaMet), Status: corev1.ConditionTrue,
			Reason: jobCompletedReason, Message: jobCompletedMessage}
		done := met
		done.Type = string(batchv1.JobComplete)
		return []condition{met, done}
	}
	return nil
}

// firstReason is the reason of the first condition that gives one, or
// jobFailedReason.
func firstReason(cs ...*condition) string {
	for _, c := range cs {
		if c != nil && c.Reason != "" {
			return c.Reason
		}
	}
	return jobFailedReason
}

// addOptional adds an optional count to an optional sum; the sum is set
// once any count is.
func addOptional(sum, v *int32) *int32 {
	if v == nil {
		return sum
	}
	total := *v
	if sum != nil {
		total += *sum
	}
	return &total
}

func fromJobConditions(cs []batchv1.JobCondition) []condition {
	out := make([]condition, 0, len(cs))
	for _, c := range cs {
		out = append(out, condition{Type: string(c.Type), Status: c.Status, Reason: c.Reason, Message: c.Message,
			Updated: c.LastProbeTime, Transitioned: c.LastTransitionTime})
	}
	return out
}

func toJobConditions(cs []condition) []batchv1.JobCondition {
	if len(cs) == 0 {
		return nil
	}
	out := make([]batchv1.JobCondition, 0, len(cs))
	for _, c := range cs {
		out = append(out, batchv1.JobCondition{Type: batchv1.JobConditionType(c.Type), Status: c.Status, Reason: c.Reason,
			Message: c.Message, LastProbeTime: c.Updated, LastTransitionTime: c.Transitioned})
	}
	return out
}
