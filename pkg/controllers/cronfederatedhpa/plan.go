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
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/autoscaling/validation"
)

// maxSlots bounds the walk over the slots a rule missed (a schedule every
// minute missed for two months is 86,400 slots).
const maxSlots = 100000

// Step is what a rule calls for at a moment.
type Step struct {
	// Due is the slot to run now; nil when nothing is due.
	Due *time.Time
	// Next is the rule's next slot after now; nil while it is suspended.
	Next *time.Time
}

// Plan decides, for one rule and its recorded history, whether a run is
// due at now and when the next one is. A rule runs at the slots of its
// schedule read in its time zone (loc when it names none). The first look
// at a rule (or after it is resumed, or its schedule moved so that the
// recorded next slot is no longer one of its slots) only records the next
// slot: runs are never made up for the time before. When the recorded
// next slot has passed, the latest slot up to now runs once — late, after
// a restart of the controller, but what the schedule wants by now — and
// the slots between are skipped.
func Plan(rule autoscalingv1alpha1.CronFederatedHPARule, history *autoscalingv1alpha1.ExecutionHistory, now time.Time, loc *time.Location) (Step, error) {
	if rule.Suspend != nil && *rule.Suspend {
		return Step{}, nil
	}
	sched, err := validation.ParseSchedule(rule.Schedule)
	if err != nil {
		return Step{}, fmt.Errorf("rule %s: %w", rule.Name, err)
	}
	if rule.TimeZone != nil {
		if loc, err = time.LoadLocation(*rule.TimeZone); err != nil {
			return Step{}, fmt.Errorf("rule %s: time zone %q: %w", rule.Name, *rule.TimeZone, err)
		}
	}
	now = now.In(loc)
	next := sched.Next(now)
	if history == nil || history.NextExecutionTime == nil {
		return Step{Next: &next}, nil
	}
	recorded := history.NextExecutionTime.In(loc)
	if !sched.Next(recorded.Add(-time.Second)).Equal(recorded) {
		return Step{Next: &next}, nil
	}
	if now.Before(recorded) {
		return Step{Next: &recorded}, nil
	}
	due := recorded
	for i, slot := 0, sched.Next(recorded); i < maxSlots && !slot.After(now); i, slot = i+1, sched.Next(slot) {
		due = slot
	}
	return Step{Due: &due, Next: &next}, nil
}

// Record returns a rule's history after a run at execution of the slot
// due: the outcome goes first, the lists are cut to the rule's limits
// (3 each when unset), and the next slot is set.
func Record(rule autoscalingv1alpha1.CronFederatedHPARule, history autoscalingv1alpha1.ExecutionHistory, step Step, execution time.Time, outcome Outcome) autoscalingv1alpha1.ExecutionHistory {
	out := *history.DeepCopy()
	out.RuleName = rule.Name
	out.NextExecutionTime = metaTime(step.Next)
	if step.Due == nil {
		return out
	}
	scheduled, ran := metaTime(step.Due), metaTime(&execution)
	if outcome.Err != nil {
		failed := autoscalingv1alpha1.FailedExecution{ScheduleTime: scheduled, ExecutionTime: ran, Message: outcome.Err.Error()}
		out.FailedExecutions = prepend(failed, out.FailedExecutions, limit(rule.FailedHistoryLimit))
		return out
	}
	ok := autoscalingv1alpha1.SuccessfulExecution{ScheduleTime: scheduled, ExecutionTime: ran,
		AppliedReplicas: outcome.Replicas, AppliedMinReplicas: outcome.MinReplicas, AppliedMaxReplicas: outcome.MaxReplicas}
	out.SuccessfulExecutions = prepend(ok, out.SuccessfulExecutions, limit(rule.SuccessfulHistoryLimit))
	return out
}

// Outcome is what a run did: what it set, or why it failed.
type Outcome struct {
	Replicas, MinReplicas, MaxReplicas *int32
	Err                                error
}

func limit(v *int32) int {
	if v == nil {
		return 3
	}
	return int(*v)
}

func prepend[T any](item T, list []T, max int) []T {
	out := append([]T{item}, list...)
	if len(out) > max {
		out = out[:max]
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

func metaTime(t *time.Time) *metav1.Time {
	if t == nil {
		return nil
	}
	m := metav1.NewTime(t.UTC().Truncate(time.Second))
	return &m
}
