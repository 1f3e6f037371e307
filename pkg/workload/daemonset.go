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
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// DaemonSetStatus is what mco collects of a DaemonSet in a member cluster:
// its counters, generations, the template generation it was rendered from
// and its conditions.
type DaemonSetStatus struct {
	CurrentNumberScheduled     int32                       `json:"currentNumberScheduled,omitempty"`
	NumberMisscheduled         int32                       `json:"numberMisscheduled,omitempty"`
	DesiredNumberScheduled     int32                       `json:"desiredNumberScheduled,omitempty"`
	NumberReady                int32                       `json:"numberReady,omitempty"`
	UpdatedNumberScheduled     int32                       `json:"updatedNumberScheduled,omitempty"`
	NumberAvailable            int32                       `json:"numberAvailable,omitempty"`
	NumberUnavailable          int32                       `json:"numberUnavailable,omitempty"`
	ObservedGeneration         int64                       `json:"observedGeneration,omitempty"`
	Generation                 int64                       `json:"generation,omitempty"`
	ResourceTemplateGeneration int64                       `json:"resourceTemplateGeneration,omitempty"`
	Conditions                 []appsv1.DaemonSetCondition `json:"conditions,omitempty"`
}

func (s DaemonSetStatus) generations() generations {
	return generations{observed: s.ObservedGeneration, current: s.Generation, template: s.ResourceTemplateGeneration}
}

func reflectDaemonSet(d *appsv1.DaemonSet, templateGen int64) any {
	st := d.Status
	return DaemonSetStatus{
		CurrentNumberScheduled: st.CurrentNumberScheduled, NumberMisscheduled: st.NumberMisscheduled,
		DesiredNumberScheduled: st.DesiredNumberScheduled, NumberReady: st.NumberReady,
		UpdatedNumberScheduled: st.UpdatedNumberScheduled, NumberAvailable: st.NumberAvailable,
		NumberUnavailable: st.NumberUnavailable, ObservedGeneration: st.ObservedGeneration,
		Generation: d.Generation, ResourceTemplateGeneration: templateGen, Conditions: st.Conditions,
	}
}

// daemonSetHealthy is Karmada's rule: the controller observed the latest
// generation, every node that should run the pod runs the updated one, and
// the updated pods are available.
func daemonSetHealthy(d *appsv1.DaemonSet) bool {
	st := d.Status
	return st.ObservedGeneration == d.Generation && st.UpdatedNumberScheduled >= st.DesiredNumberScheduled &&
		st.NumberAvailable >= st.UpdatedNumberScheduled
}

// aggregateDaemonSet sums the members' counters; observedGeneration follows
// the Deployment rule (see observedGeneration). Members' conditions are not
// aggregated: the DaemonSet controller sets none. `kubectl rollout status
// daemonset/<name>` on mco thus waits for every member to catch up, then
// for every node of every member to run an updated, available pod.
func aggregateDaemonSet(d *appsv1.DaemonSet, members []member[DaemonSetStatus], _ metav1.Time) appsv1.DaemonSetStatus {
	out := appsv1.DaemonSetStatus{ObservedGeneration: observedGeneration(d.Generation, d.Status.ObservedGeneration, members)}
	for _, m := range members {
		if st := m.status; st != nil {
			out.CurrentNumberScheduled += st.CurrentNumberScheduled
			out.NumberMisscheduled += st.NumberMisscheduled
			out.DesiredNumberScheduled += st.DesiredNumberScheduled
			out.NumberReady += st.NumberReady
			out.UpdatedNumberScheduled += st.UpdatedNumberScheduled
			out.NumberAvailable += st.NumberAvailable
			out.NumberUnavailable += st.NumberUnavailable
		}
	}
	return out
}
