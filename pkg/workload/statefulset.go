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
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// StatefulSetStatus is what mco collects of a StatefulSet in a member
// cluster: its counters, generations, the template generation it was
// rendered from, its revisions and its conditions.
type StatefulSetStatus struct {
	Replicas                   int32                         `json:"replicas,omitempty"`
	ReadyReplicas              int32                         `json:"readyReplicas,omitempty"`
	CurrentReplicas            int32                         `json:"currentReplicas,omitempty"`
	UpdatedReplicas            int32                         `json:"updatedReplicas,omitempty"`
	AvailableReplicas          int32                         `json:"availableReplicas,omitempty"`
	ObservedGeneration         int64                         `json:"observedGeneration,omitempty"`
	Generation                 int64                         `json:"generation,omitempty"`
	ResourceTemplateGeneration int64                         `json:"resourceTemplateGeneration,omitempty"`
	CurrentRevision            string                        `json:"currentRevision,omitempty"`
	UpdateRevision             string                        `json:"updateRevision,omitempty"`
	Conditions                 []appsv1.StatefulSetCondition `json:"conditions,omitempty"`
}

func (s StatefulSetStatus) generations() generations {
	return generations{observed: s.ObservedGeneration, current: s.Generation, template: s.ResourceTemplateGeneration}
}

func reflectStatefulSet(s *appsv1.StatefulSet, templateGen int64) any {
	st := s.Status
	return StatefulSetStatus{
		Replicas: st.Replicas, ReadyReplicas: st.ReadyReplicas, CurrentReplicas: st.CurrentReplicas,
		UpdatedReplicas: st.UpdatedReplicas, AvailableReplicas: st.AvailableReplicas,
		ObservedGeneration: st.ObservedGeneration, Generation: s.Generation, ResourceTemplateGeneration: templateGen,
		CurrentRevision: st.CurrentRevision, UpdateRevision: st.UpdateRevision, Conditions: st.Conditions,
	}
}

// statefulSetHealthy is Karmada's rule: the controller observed the latest
// generation; the pods a rolling update must replace (all of them, less
// the partition) are updated; every wanted pod is available, and so is
// every updated one.
func statefulSetHealthy(s *appsv1.StatefulSet) bool {
	st := s.Status
	if st.ObservedGeneration != s.Generation {
		return false
	}
	want := replicasOrOne(s.Spec.Replicas)
	wantUpdated := want
	if ru := s.Spec.UpdateStrategy.RollingUpdate; ru != nil && ru.Partition != nil {
		wantUpdated -= *ru.Partition
	}
	return st.UpdatedReplicas >= wantUpdated && st.AvailableReplicas >= want && st.AvailableReplicas >= st.UpdatedReplicas
}

// aggregateStatefulSet sums the members' counters; observedGeneration
// follows the Deployment rule (see observedGeneration). Members' conditions
// are not aggregated: the StatefulSet controller sets none.
//
// Revisions are hashes of pod templates, and overrides give members
// different templates, so no member's revision names the template's. mco
// reports one made-up revision, "<name>-<10 hex digits of the SHA-256 of
// the members' sorted update revisions>", as updateRevision. When every
// member has caught up and reports currentRevision == updateRevision, the
// rollout is over and currentRevision is the same value. Otherwise
// currentRevision stays at the last revision reported as rolled out, or is
// empty, so that it differs from updateRevision.
//
// What `kubectl rollout status statefulset/<name>` reports on mco: it waits
// until observedGeneration reaches the template's generation (every member
// caught up) and readyReplicas, summed over members, reaches spec.replicas.
// mco defaults a RollingUpdate strategy with partition 0, so kubectl then
// waits until the summed updatedReplicas reaches spec.replicas less the
// partition and prints "partitioned roll out complete: N new pods have been
// updated...". A partition p > 0 applies in each member, which updates its
// share less p, so with more than one member the summed count stays short
// and kubectl keeps waiting. Revisions are compared only when the template
// has no rollingUpdate block: kubectl prints "waiting for statefulset
// rolling update to complete N pods at revision <name>-<hash>..." until
// every member has rolled out, then "statefulset rolling update complete N
// pods at revision <name>-<hash>...". With OnDelete, kubectl refuses.
func aggregateStatefulSet(s *appsv1.StatefulSet, members []member[StatefulSetStatus], _ metav1.Time) appsv1.StatefulSetStatus {
	out := appsv1.StatefulSetStatus{ObservedGeneration: observedGeneration(s.Generation, s.Status.ObservedGeneration, members)}
	for _, m := range members {
		if st := m.status; st != nil {
			out.Replicas += st.Replicas
			out.ReadyReplicas += st.ReadyReplicas
			out.CurrentReplicas += st.CurrentReplicas
			out.UpdatedReplicas += st.UpdatedReplicas
			out.AvailableReplicas += st.AvailableReplicas
		}
	}
	out.CurrentRevision, out.UpdateRevision = statefulSetRevisions(s, members)
	return out
}

// statefulSetRevisions returns the template's currentRevision and
// updateRevision; see aggregateStatefulSet.
func statefulSetRevisions(s *appsv1.StatefulSet, members []member[StatefulSetStatus]) (current, update string) {
	rolledOut := allCaughtUp(s.Generation, members)
	var updates []string
	for _, m := range members {
		if m.status == nil {
			continue
		}
		updates = append(updates, m.status.UpdateRevision)
		if m.status.UpdateRevision == "" || m.status.UpdateRevision != m.status.CurrentRevision {
			rolledOut = false
		}
	}
	update = revisionName(s.Name, updates)
	switch {
	case rolledOut:
		return update, update
	case s.Status.CurrentRevision != update:
		return s.Status.CurrentRevision, update
	}
	return "", update
}

// revisionName is name followed by 10 hex digits of the SHA-256 of the
// sorted revisions.
func revisionName(name string, revisions []string) string {
	sorted := append([]string(nil), revisions...)
	sort.Strings(sorted)
	sum := sha256.Sum256([]byte(strings.Join(sorted, "\n")))
	return name + "-" + hex.EncodeToString(sum[:])[:10]
}
