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
	"strings"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// condition is a status condition of any workload kind as aggregation sees
// it. Each kind converts its own condition type to and from it.
type condition struct {
	Type    string
	Status  corev1.ConditionStatus
	Reason  string
	Message string
	// Updated is lastUpdateTime (Deployment) or lastProbeTime (Job); kinds
	// whose conditions have only a transition time drop it.
	Updated      metav1.Time
	Transitioned metav1.Time
}

// stamp sets the times of next as a controller would, from the condition of
// the same type in recorded: the transition time carries over while the
// status is unchanged, and the update time while the reason and message are
// unchanged too. Anything new happens now.
func stamp(recorded []condition, next condition, now metav1.Time) condition {
	next.Updated, next.Transitioned = now, now
	old := findCondition(recorded, next.Type)
	if old == nil || old.Status != next.Status {
		return next
	}
	next.Transitioned = old.Transitioned
	if old.Reason == next.Reason && old.Message == next.Message {
		next.Updated = old.Updated
	}
	return next
}

// stampAll stamps each condition of next against recorded.
func stampAll(recorded, next []condition, now metav1.Time) []condition {
	out := make([]condition, 0, len(next))
	for _, c := range next {
		out = append(out, stamp(recorded, c, now))
	}
	return out
}

func findCondition(cs []condition, t string) *condition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// findTrue returns condition t of cs when its status is True.
func findTrue(cs []condition, t string) *condition {
	if c := findCondition(cs, t); c != nil && c.Status == corev1.ConditionTrue {
		return c
	}
	return nil
}

// isTrue tells whether cs holds condition t with status True.
func isTrue(cs []condition, t string) bool {
	return findTrue(cs, t) != nil
}

// inClusters ends a condition message naming clusters.
func inClusters(clusters []string) string {
	return "in cluster(s) " + strings.Join(clusters, ", ") + "."
}
