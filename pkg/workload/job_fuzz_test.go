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
	"fmt"
	"slices"
	"testing"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// FuzzAggregateJobWritesWhatTheAPIServerAccepts checks that whatever valid
// Jobs the members report, the aggregated Job status keeps the rules
// kube-apiserver enforces on a Job's status.
func FuzzAggregateJobWritesWhatTheAPIServerAccepts(f *testing.F) {
	f.Add([]byte{1, 2, 3, 0, 4}, uint8(3), uint8(1), false)
	f.Add([]byte{2, 10, 18}, uint8(0), uint8(0), false)
	f.Add([]byte{3, 2, 11}, uint8(9), uint8(9), true)
	f.Add([]byte{4, 12}, uint8(0), uint8(0), false)
	f.Fuzz(func(t *testing.T, states []byte, recordedSucceeded, recordedFailed uint8, recordedTarget bool) {
		var items []workv1alpha2.AggregatedStatusItem
		for i, b := range states[:min(len(states), 12)] {
			n, start := int32(b>>3), at(8, int(b)%60)
			var s *JobStatus
			switch b % 5 {
			case 1:
				s = running(n, n/2, n/3, n/4, start)
			case 2:
				s = completed(n, start, at(9, int(b)%60))
			case 3:
				s = failedWith("BackoffLimitExceeded", n, start)
			case 4:
				s = failing("PodFailurePolicy", n, start)
			}
			items = append(items, report(t, fmt.Sprintf("m%02d", i), s))
		}
		j := job(nil, nil)
		j.Status = batchv1.JobStatus{Succeeded: int32(recordedSucceeded), Failed: int32(recordedFailed)}
		if recordedTarget {
			j.Status.Conditions = []batchv1.JobCondition{jobCondition(batchv1.JobFailureTarget, "BackoffLimitExceeded")}
		}
		got := aggregateAs[batchv1.JobStatus](t, object(t, "batch/v1", "Job", j), items)

		index := func(ct batchv1.JobConditionType) int {
			return slices.IndexFunc(got.Conditions, func(c batchv1.JobCondition) bool {
				return c.Type == ct && c.Status == corev1.ConditionTrue
			})
		}
		complete, failed := index(batchv1.JobComplete), index(batchv1.JobFailed)
		met, target := index(batchv1.JobSuccessCriteriaMet), index(batchv1.JobFailureTarget)
		finished := complete >= 0 || failed >= 0
		checks := []struct {
			broken bool
			rule   string
		}{
			{got.Succeeded < int32(recordedSucceeded) || got.Failed < int32(recordedFailed), "succeeded and failed never decrease"},
			{got.Active < 0 || got.Succeeded < 0 || got.Failed < 0, "counts are not negative"},
			{got.Ready != nil && *got.Ready > got.Active, "ready pods are not more than active ones"},
			{complete >= 0 && failed >= 0, "Complete and Failed are not both True"},
			{complete >= 0 && (met < 0 || met > complete), "SuccessCriteriaMet precedes Complete"},
			{failed >= 0 && (target < 0 || target > failed), "FailureTarget precedes Failed"},
			{met >= 0 && (target >= 0 || failed >= 0), "SuccessCriteriaMet goes with neither FailureTarget nor Failed"},
			{recordedTarget && target < 0, "FailureTarget is never withdrawn"},
			{(got.CompletionTime != nil) != (complete >= 0), "completionTime is set with Complete only"},
			{finished && (got.Active > 0 || (got.Terminating != nil && *got.Terminating > 0)), "a finished Job has no active or terminating pods"},
			{finished && got.StartTime == nil, "a finished Job has a startTime"},
			{got.CompletionTime != nil && got.StartTime != nil && got.CompletionTime.Before(got.StartTime), "completionTime is not before startTime"},
		}
		for _, c := range checks {
			if c.broken {
				t.Errorf("%s; got %+v", c.rule, got)
			}
		}
	})
}
