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

package rebalancer

import (
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/names"
)

// pending lists the workloads of the spec that have no result yet: those
// added since the last pass, or all on the first. A workload keeps the
// result it had while it stays listed, so an edit of the list rebalances
// only the new ones.
func pending(r *appsv1alpha1.WorkloadRebalancer) []appsv1alpha1.ObjectReference {
	done := results(&r.Status)
	var out []appsv1alpha1.ObjectReference
	for _, w := range r.Spec.Workloads {
		if _, ok := done[w]; !ok {
			out = append(out, w)
		}
	}
	return out
}

// results indexes the results recorded so far.
func results(st *appsv1alpha1.WorkloadRebalancerStatus) map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload {
	out := map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload{}
	for _, o := range st.ObservedWorkloads {
		if o.Result != "" {
			out[o.Workload] = o
		}
	}
	return out
}

// nextStatus is the status after a pass: one entry per listed workload, in
// the spec's order, with its earlier result or the one just obtained (no
// result: still to do); finishTime set once every workload has one, and
// kept from an earlier finish when nothing new was done.
func nextStatus(r *appsv1alpha1.WorkloadRebalancer, got map[appsv1alpha1.ObjectReference]appsv1alpha1.ObservedWorkload,
	now time.Time) appsv1alpha1.WorkloadRebalancerStatus {
	done := results(&r.Status)
	st := appsv1alpha1.WorkloadRebalancerStatus{ObservedGeneration: r.Generation}
	finished := true
	for _, w := range r.Spec.Workloads {
		o, ok := done[w]
		if !ok {
			o, ok = got[w]
		}
		if !ok {
			o = appsv1alpha1.ObservedWorkload{Workload: w}
			finished = false
		}
		st.ObservedWorkloads = append(st.ObservedWorkloads, o)
	}
	if finished {
		st.FinishTime = r.Status.FinishTime
		if st.FinishTime == nil || len(got) > 0 {
			t := metav1.NewTime(now)
			st.FinishTime = &t
		}
	}
	return st
}

// bindingKey is the binding of a workload.
func bindingKey(w appsv1alpha1.ObjectReference) binding.Key {
	return binding.Key{Namespace: w.Namespace, Name: names.Binding(w.Kind, w.Name)}
}

// sameTemplate tells whether the binding is that of the workload: the
// binding's name only carries the kind and name, so a kind of the same
// name in another group would share it.
func sameTemplate(spec *workv1alpha2.ResourceBindingSpec, w appsv1alpha1.ObjectReference) bool {
	group := func(apiVersion string) string {
		gv, _ := schema.ParseGroupVersion(apiVersion)
		return gv.Group
	}
	r := spec.Resource
	return r.Kind == w.Kind && r.Name == w.Name && r.Namespace == w.Namespace && group(r.APIVersion) == group(w.APIVersion)
}

// triggerTime is the rescheduleTriggeredAt to write: now, but strictly
// after the binding's last decision (times are kept to the second, and
// the scheduler honours only a request made after its last decision),
// and never earlier than a request already pending.
func triggerTime(spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus, now time.Time) metav1.Time {
	at := now.Truncate(time.Second)
	if last := status.LastScheduledTime; last != nil && !at.After(last.Time) {
		at = last.Time.Truncate(time.Second).Add(time.Second)
	}
	if prev := spec.RescheduleTriggeredAt; prev != nil && prev.Time.After(at) {
		at = prev.Time
	}
	return metav1.NewTime(at)
}

// expiry is when a finished rebalancer with a TTL is to be deleted; false
// when it is not finished or has no TTL.
func expiry(r *appsv1alpha1.WorkloadRebalancer) (time.Time, bool) {
	ttl, fin := r.Spec.TTLSecondsAfterFinished, r.Status.FinishTime
	if ttl == nil || fin == nil || r.Status.ObservedGeneration != r.Generation {
		return time.Time{}, false
	}
	return fin.Add(time.Duration(*ttl) * time.Second), true
}

// workBindingResource names the binding resource of a key, for errors.
func workBindingResource(k binding.Key) schema.GroupResource {
	if k.Namespace == "" {
		return workv1alpha2.Resource("clusterresourcebindings")
	}
	return workv1alpha2.Resource("resourcebindings")
}
