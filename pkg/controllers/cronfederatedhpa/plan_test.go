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

package cronfederatedhpa

import (
	"errors"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func history(next string) *autoscalingv1alpha1.ExecutionHistory {
	if next == "" {
		return &autoscalingv1alpha1.ExecutionHistory{RuleName: "r"}
	}
	t := metav1.NewTime(at(next))
	return &autoscalingv1alpha1.ExecutionHistory{RuleName: "r", NextExecutionTime: &t}
}

func TestPlan(t *testing.T) {
	t.Parallel()
	every15 := autoscalingv1alpha1.CronFederatedHPARule{Name: "r", Schedule: "*/15 * * * *"}
	cases := []struct {
		name      string
		rule      autoscalingv1alpha1.CronFederatedHPARule
		history   *autoscalingv1alpha1.ExecutionHistory
		now       string
		due, next string // "" for none
	}{
		{name: "A new rule only records its next slot.", rule: every15, now: "2026-12-06T08:07:30Z", next: "2026-12-06T08:15:00Z"},
		{name: "Before the recorded slot nothing is due.", rule: every15, history: history("2026-12-06T08:15:00Z"),
			now: "2026-12-06T08:14:59Z", next: "2026-12-06T08:15:00Z"},
		{name: "At the recorded slot it is due, and the next one follows.", rule: every15, history: history("2026-12-06T08:15:00Z"),
			now: "2026-12-06T08:15:00Z", due: "2026-12-06T08:15:00Z", next: "2026-12-06T08:30:00Z"},
		{name: "After slots were missed only the latest runs.", rule: every15, history: history("2026-12-06T08:15:00Z"),
			now: "2026-12-06T09:20:00Z", due: "2026-12-06T09:15:00Z", next: "2026-12-06T09:30:00Z"},
		{name: "A suspended rule neither runs nor has a next slot.", rule: func() autoscalingv1alpha1.CronFederatedHPARule {
			r := every15
			r.Suspend = ptr.To(true)
			return r
		}(), history: history("2026-12-06T08:15:00Z"), now: "2026-12-06T09:20:00Z"},
		{name: "A recorded slot that is not one of the schedule's (the schedule changed) is recorded anew, without a run.",
			rule: autoscalingv1alpha1.CronFederatedHPARule{Name: "r", Schedule: "0 * * * *"}, history: history("2026-12-06T08:15:00Z"),
			now: "2026-12-06T08:20:00Z", next: "2026-12-06T09:00:00Z"},
		{name: "A resumed rule (no next slot recorded) starts from now.", rule: every15, history: history(""),
			now: "2026-12-06T08:20:00Z", next: "2026-12-06T08:30:00Z"},
		{name: "The schedule is read in the rule's time zone.",
			rule: autoscalingv1alpha1.CronFederatedHPARule{Name: "r", Schedule: "0 9 * * *", TimeZone: ptr.To("Asia/Tokyo")},
			now:  "2026-12-06T08:20:00Z", next: "2026-12-07T00:00:00Z"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			step, err := Plan(tc.rule, tc.history, at(tc.now), time.UTC)
			if err != nil {
				t.Fatal(err)
			}
			if got := show(step.Due); got != tc.due {
				t.Errorf("due %s, want %q", got, tc.due)
			}
			if got := show(step.Next); got != tc.next {
				t.Errorf("next %s, want %q", got, tc.next)
			}
		})
	}
}

func show(t *time.Time) string {
	if t == nil {
		return ""
	}
	return t.UTC().Format(time.RFC3339)
}

func TestRecord(t *testing.T) {
	t.Parallel()
	rule := autoscalingv1alpha1.CronFederatedHPARule{Name: "r", Schedule: "* * * * *", SuccessfulHistoryLimit: ptr.To[int32](2), FailedHistoryLimit: ptr.To[int32](0)}
	due, next, ran := at("2026-12-06T08:15:00Z"), at("2026-12-06T08:16:00Z"), at("2026-12-06T08:15:00.4Z")
	step := Step{Due: &due, Next: &next}
	var h autoscalingv1alpha1.ExecutionHistory
	for i := int32(1); i <= 3; i++ {
		h = Record(rule, h, step, ran, Outcome{Replicas: ptr.To(i)})
	}
	if len(h.SuccessfulExecutions) != 2 || *h.SuccessfulExecutions[0].AppliedReplicas != 3 || *h.SuccessfulExecutions[1].AppliedReplicas != 2 {
		t.Errorf("successful executions %+v, want the two newest, newest first", h.SuccessfulExecutions)
	}
	if h.RuleName != "r" || !h.NextExecutionTime.Time.Equal(next) || !h.SuccessfulExecutions[0].ScheduleTime.Time.Equal(due) ||
		!h.SuccessfulExecutions[0].ExecutionTime.Time.Equal(at("2026-12-06T08:15:00Z")) {
		t.Errorf("history %+v", h)
	}
	h = Record(rule, h, step, ran, Outcome{Err: errors.New("no such Deployment")})
	if h.FailedExecutions != nil {
		t.Errorf("failed executions %+v, want none kept with a limit of 0", h.FailedExecutions)
	}
	unlimited := rule
	unlimited.FailedHistoryLimit = nil
	h = Record(unlimited, h, step, ran, Outcome{Err: errors.New("no such Deployment")})
	if len(h.FailedExecutions) != 1 || h.FailedExecutions[0].Message != "no such Deployment" {
		t.Errorf("failed executions %+v", h.FailedExecutions)
	}
	h = Record(rule, h, Step{}, ran, Outcome{})
	if h.NextExecutionTime != nil || len(h.SuccessfulExecutions) != 2 {
		t.Errorf("a suspended rule keeps its runs and loses its next slot: %+v", h)
	}
}
