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
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// ReplicaSetStatus is what mco collects of a ReplicaSet in a member
// cluster: its counters, generations, the template generation it was
// rendered from and its conditions.
type ReplicaSetStatus struct {
	Replicas                   int32                        `json:"replicas,omitempty"`
	FullyLabeledReplicas       int32                        `json:"fullyLabeledReplicas,omitempty"`
	ReadyReplicas              int32                        `json:"readyReplicas,omitempty"`
	AvailableReplicas          int32                        `json:"availableReplicas,omitempty"`
	ObservedGeneration         int64                        `json:"observedGeneration,omitempty"`
	Generation                 int64                        `json:"generation,omitempty"`
	ResourceTemplateGeneration int64                        `json:"resourceTemplateGeneration,omitempty"`
	Conditions                 []appsv1.ReplicaSetCondition `json:"conditions,omitempty"`
}

func (s ReplicaSetStatus) generations() generations {
	return generations{observed: s.ObservedGeneration, current: s.Generation, template: s.ResourceTemplateGeneration}
}

func reflectReplicaSet(r *appsv1.ReplicaSet, templateGen int64) any {
	st := r.Status
	return ReplicaSetStatus{
		Replicas: st.Replicas, FullyLabeledReplicas: st.FullyLabeledReplicas, ReadyReplicas: st.ReadyReplicas,
		AvailableReplicas: st.AvailableReplicas, ObservedGeneration: st.ObservedGeneration,
		Generation: r.Generation, ResourceTemplateGeneration: templateGen, Conditions: st.Conditions,
	}
}

// replicaSetHealthy is Karmada's rule: the controller observed the latest
// generation and every wanted replica is available.
func replicaSetHealthy(r *appsv1.ReplicaSet) bool {
	return r.Status.ObservedGeneration == r.Generation && r.Status.AvailableReplicas >= replicasOrOne(r.Spec.Replicas)
}

// aggregateReplicaSet sums the members' counters; observedGeneration
// follows the Deployment rule (see observedGeneration). ReplicaFailure, the
// one condition the ReplicaSet controller sets, is True when it is True in
// any member, with the first such member's reason and a message naming
// them all; like the controller, mco drops it otherwise.
func aggregateReplicaSet(r *appsv1.ReplicaSet, members []member[ReplicaSetStatus], now metav1.Time) appsv1.ReplicaSetStatus {
	out := appsv1.ReplicaSetStatus{ObservedGeneration: observedGeneration(r.Generation, r.Status.ObservedGeneration, members)}
	var failing []string
	reason := ""
	for _, m := range members {
		st := m.status
		if st == nil {
			continue
		}
		out.Replicas += st.Replicas
		out.FullyLabeledReplicas += st.FullyLabeledReplicas
		out.ReadyReplicas += st.ReadyReplicas
		out.AvailableReplicas += st.AvailableReplicas
		for _, c := range st.Conditions {
			if c.Type == appsv1.ReplicaSetReplicaFailure && c.Status == corev1.ConditionTrue {
				if len(failing) == 0 {
					reason = c.Reason
				}
				failing = append(failing, m.cluster)
			}
		}
	}
	if len(failing) > 0 {
		next := condition{Type: string(appsv1.ReplicaSetReplicaFailure), Status: corev1.ConditionTrue, Reason: reason,
			Message: "Replicas could not be created or deleted " + inClusters(failing)}
		recorded := make([]condition, 0, len(r.Status.Conditions))
		for _, c := range r.Status.Conditions {
			recorded = append(recorded, condition{Type: string(c.Type), Status: c.Status, Reason: c.Reason,
				Message: c.Message, Transitioned: c.LastTransitionTime})
		}
		c := stamp(recorded, next, now)
		out.Conditions = []appsv1.ReplicaSetCondition{{Type: appsv1.ReplicaSetConditionType(c.Type), Status: c.Status,
			Reason: c.Reason, Message: c.Message, LastTransitionTime: c.Transitioned}}
	}
	return out
}
