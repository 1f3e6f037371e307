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

// DeploymentStatus is what mco collects of a Deployment in a member
// cluster: Karmada's fields (counters, generations and the template
// generation the member object was rendered from) plus its conditions,
// which mco aggregates too.
type DeploymentStatus struct {
	Replicas                   int32                        `json:"replicas,omitempty"`
	UpdatedReplicas            int32                        `json:"updatedReplicas,omitempty"`
	ReadyReplicas              int32                        `json:"readyReplicas,omitempty"`
	AvailableReplicas          int32                        `json:"availableReplicas,omitempty"`
	UnavailableReplicas        int32                        `json:"unavailableReplicas,omitempty"`
	ObservedGeneration         int64                        `json:"observedGeneration,omitempty"`
	Generation                 int64                        `json:"generation,omitempty"`
	ResourceTemplateGeneration int64                        `json:"resourceTemplateGeneration,omitempty"`
	Conditions                 []appsv1.DeploymentCondition `json:"conditions,omitempty"`
}

func (s DeploymentStatus) generations() generations {
	return generations{observed: s.ObservedGeneration, current: s.Generation, template: s.ResourceTemplateGeneration}
}

func reflectDeployment(d *appsv1.Deployment, templateGen int64) any {
	return DeploymentStatus{
		Replicas: d.Status.Replicas, UpdatedReplicas: d.Status.UpdatedReplicas,
		ReadyReplicas: d.Status.ReadyReplicas, AvailableReplicas: d.Status.AvailableReplicas,
		UnavailableReplicas: d.Status.UnavailableReplicas, ObservedGeneration: d.Status.ObservedGeneration,
		Generation: d.Generation, ResourceTemplateGeneration: templateGen,
		Conditions: d.Status.Conditions,
	}
}

// deploymentHealthy is Karmada's rule: the controller observed the latest
// generation, all wanted replicas are updated and the updated ones are
// available.
func deploymentHealthy(d *appsv1.Deployment) bool {
	s := d.Status
	return s.ObservedGeneration == d.Generation && s.UpdatedReplicas >= replicasOrOne(d.Spec.Replicas) &&
		s.AvailableReplicas >= s.UpdatedReplicas
}

// aggregateDeployment sums the members' counters. observedGeneration
// advances to the template's generation only when every member runs what
// was rendered from it and its controller has observed it. Available and
// Progressing are aggregated too, naming the clusters that hold them back.
func aggregateDeployment(d *appsv1.Deployment, members []member[DeploymentStatus], now metav1.Time) appsv1.DeploymentStatus {
	out := appsv1.DeploymentStatus{ObservedGeneration: observedGeneration(d.Generation, d.Status.ObservedGeneration, members)}
	var notAvailable, notReported, deadline, progressing []string
	for _, m := range members {
		s := m.status
		if s == nil {
			notReported = append(notReported, m.cluster)
			continue
		}
		out.Replicas += s.Replicas
		out.UpdatedReplicas += s.UpdatedReplicas
		out.ReadyReplicas += s.ReadyReplicas
		out.AvailableReplicas += s.AvailableReplicas
		out.UnavailableReplicas += s.UnavailableReplicas
		if c := deploymentCondition(s.Conditions, appsv1.DeploymentAvailable); c == nil || c.Status != corev1.ConditionTrue {
			notAvailable = append(notAvailable, m.cluster)
		}
		switch c := deploymentCondition(s.Conditions, appsv1.DeploymentProgressing); {
		case c != nil && c.Reason == "ProgressDeadlineExceeded":
			deadline = append(deadline, m.cluster)
		case c == nil || c.Reason != "NewReplicaSetAvailable":
			progressing = append(progressing, m.cluster)
		}
	}
	notAvailable = append(notAvailable, notReported...)
	available := availableCondition(d, notAvailable, now)
	if len(members) == 0 && replicasOrOne(d.Spec.Replicas) > 0 {
		// Placed nowhere (no cluster fits): nothing runs, so nothing is available.
		available = keepTimes(d, appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionFalse,
			Reason: "MinimumReplicasUnavailable", Message: "Deployment is placed in no member cluster."}, now)
	}
	out.Conditions = []appsv1.DeploymentCondition{
		available,
		progressingCondition(d, deadline, append(progressing, notReported...), now),
	}
	return out
}

func availableCondition(d *appsv1.Deployment, notAvailable []string, now metav1.Time) appsv1.DeploymentCondition {
	c := appsv1.DeploymentCondition{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue,
		Reason: "MinimumReplicasAvailable", Message: "Deployment has minimum availability in every member cluster."}
	if len(notAvailable) > 0 {
		c.Status, c.Reason = corev1.ConditionFalse, "MinimumReplicasUnavailable"
		c.Message = "Deployment does not have minimum availability " + inClusters(notAvailable)
	}
	return keepTimes(d, c, now)
}

func progressingCondition(d *appsv1.Deployment, deadline, progressing []string, now metav1.Time) appsv1.DeploymentCondition {
	c := appsv1.DeploymentCondition{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue,
		Reason: "NewReplicaSetAvailable", Message: "The rollout has completed in every member cluster."}
	switch {
	case len(deadline) > 0:
		c.Status, c.Reason = corev1.ConditionFalse, "ProgressDeadlineExceeded"
		c.Message = "The rollout exceeded its progress deadline " + inClusters(deadline)
	case len(progressing) > 0:
		c.Reason = "ReplicaSetUpdated"
		c.Message = "The rollout is progressing " + inClusters(progressing)
	}
	return keepTimes(d, c, now)
}

// keepTimes carries over the times the template records for c (see stamp).
func keepTimes(d *appsv1.Deployment, c appsv1.DeploymentCondition, now metav1.Time) appsv1.DeploymentCondition {
	recorded := make([]condition, 0, len(d.Status.Conditions))
	for _, r := range d.Status.Conditions {
		recorded = append(recorded, fromDeploymentCondition(r))
	}
	return toDeploymentCondition(stamp(recorded, fromDeploymentCondition(c), now))
}

func fromDeploymentCondition(c appsv1.DeploymentCondition) condition {
	return condition{Type: string(c.Type), Status: c.Status, Reason: c.Reason, Message: c.Message,
		Updated: c.LastUpdateTime, Transitioned: c.LastTransitionTime}
}

func toDeploymentCondition(c condition) appsv1.DeploymentCondition {
	return appsv1.DeploymentCondition{Type: appsv1.DeploymentConditionType(c.Type), Status: c.Status, Reason: c.Reason,
		Message: c.Message, LastUpdateTime: c.Updated, LastTransitionTime: c.Transitioned}
}

func deploymentCondition(cs []appsv1.DeploymentCondition, t appsv1.DeploymentConditionType) *appsv1.DeploymentCondition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}
