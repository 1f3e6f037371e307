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
	"maps"
	"math"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/utils/ptr"
)

// jobBackoffLimit is how many failed pods a Job tolerates by default.
const jobBackoffLimit int32 = 6

// Job defaults a Job. A Job with neither parallelism nor completions runs one
// pod to completion; parallelism alone defaults to 1 and leaves completions
// unset. The pod template's restartPolicy is left as written: a Job must say
// Never or OnFailure itself. manualSelector and selector are left alone.
func Job(j *batchv1.Job) {
	s := &j.Spec
	if s.Parallelism == nil && s.Completions == nil {
		s.Completions = ptr.To[int32](1)
	}
	if s.Parallelism == nil {
		s.Parallelism = ptr.To[int32](1)
	}
	if s.BackoffLimit == nil {
		if s.BackoffLimitPerIndex != nil {
			// Per-index limits take over; the global one stops counting.
			s.BackoffLimit = ptr.To[int32](math.MaxInt32)
		} else {
			s.BackoffLimit = ptr.To(jobBackoffLimit)
		}
	}
	if s.CompletionMode == nil {
		s.CompletionMode = ptr.To(batchv1.NonIndexedCompletion)
	}
	if s.Suspend == nil {
		s.Suspend = ptr.To(false)
	}
	if s.PodReplacementPolicy == nil {
		if s.PodFailurePolicy != nil {
			s.PodReplacementPolicy = ptr.To(batchv1.Failed)
		} else {
			s.PodReplacementPolicy = ptr.To(batchv1.TerminatingOrFailed)
		}
	}
	if s.PodFailurePolicy != nil {
		for i := range s.PodFailurePolicy.Rules {
			patterns := s.PodFailurePolicy.Rules[i].OnPodConditions
			for k := range patterns {
				if patterns[k].Status == "" {
					patterns[k].Status = corev1.ConditionTrue
				}
			}
		}
	}
	// A Job without labels of its own carries its pods' labels.
	if len(j.Labels) == 0 && s.Template.Labels != nil {
		j.Labels = maps.Clone(s.Template.Labels)
	}
	podSpec(&s.Template.Spec, false)
}
