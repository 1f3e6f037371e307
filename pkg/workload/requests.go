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
	corev1 "k8s.io/api/core/v1"
)

// podRequests returns what a pod built from spec asks of a node, the way the
// kube-scheduler counts it:
//
//   - app containers and sidecars (init containers with restartPolicy
//     Always) run together, so their requests add up;
//   - every other init container runs alone, next to the sidecars started
//     before it, so the pod needs at least that much while it runs; the
//     larger of the two totals counts, resource by resource;
//   - requests set for the whole pod (spec.resources) replace the per
//     container total for those resources;
//   - the runtime class overhead (spec.overhead) is added last.
//
// A container (or the pod) that sets a limit without a request asks for the
// limit, as API defaulting would have recorded. Zero amounts are left out;
// the result is nil when nothing is requested.
func podRequests(spec *corev1.PodSpec) corev1.ResourceList {
	total := corev1.ResourceList{}
	for i := range spec.Containers {
		add(total, requestsOf(&spec.Containers[i].Resources))
	}
	sidecars := corev1.ResourceList{}
	peak := corev1.ResourceList{} // the most any init phase needs
	for i := range spec.InitContainers {
		c := &spec.InitContainers[i]
		own := requestsOf(&c.Resources)
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			add(total, own)
			add(sidecars, own)
			raise(peak, sidecars)
			continue
		}
		phase := corev1.ResourceList{}
		add(phase, own)
		add(phase, sidecars)
		raise(peak, phase)
	}
	raise(total, peak)
	if spec.Resources != nil {
		for name, q := range requestsOf(spec.Resources) {
			total[name] = q.DeepCopy()
		}
	}
	add(total, spec.Overhead)
	for name, q := range total {
		if q.Sign() <= 0 {
			delete(total, name)
		}
	}
	if len(total) == 0 {
		return nil
	}
	return total
}

// requestsOf returns the requests, filled in from the limits for resources
// that have a limit and no request.
func requestsOf(r *corev1.ResourceRequirements) corev1.ResourceList {
	missing := false
	for name := range r.Limits {
		if _, ok := r.Requests[name]; !ok {
			missing = true
			break
		}
	}
	if !missing {
		return r.Requests
	}
	out := make(corev1.ResourceList, len(r.Requests)+len(r.Limits))
	for name, q := range r.Limits {
		out[name] = q
	}
	for name, q := range r.Requests {
		out[name] = q
	}
	return out
}

// add adds every amount in more to into.
func add(into, more corev1.ResourceList) {
	for name, q := range more {
		cur, ok := into[name]
		if !ok {
			into[name] = q.DeepCopy()
			continue
		}
		cur.Add(q)
		into[name] = cur
	}
}

// raise lifts every amount in into to at least the one in floor.
func raise(into, floor corev1.ResourceList) {
	for name, q := range floor {
		if cur, ok := into[name]; !ok || cur.Cmp(q) < 0 {
			into[name] = q.DeepCopy()
		}
	}
}

// PodRequests returns what a pod asks of a node, by the rules of
// podRequests; the result is never nil.
func PodRequests(spec *corev1.PodSpec) corev1.ResourceList {
	if r := podRequests(spec); r != nil {
		return r
	}
	return corev1.ResourceList{}
}
