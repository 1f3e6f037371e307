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

// Package workload reads, from a workload template held on the control plane,
// how many replicas it wants and what each replica needs from a member
// cluster. The scheduler divides the first and estimates capacity with the
// second.
package workload

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Interpretation is what mco reads of a template to schedule it.
type Interpretation struct {
	// Replicated is true for kinds with a replica count (Deployment,
	// StatefulSet, ReplicaSet, Job, and a Pod as one replica); Replicas and
	// Requirements are then set.
	Replicated bool
	// Replicas is the count to divide among clusters.
	Replicas int32
	// Requirements describe one replica (nil when it asks for nothing).
	Requirements *workv1alpha2.ReplicaRequirements
	// Components describe a workload made of several pod templates, each
	// with its replicas and requirements (only from a customization).
	Components []workv1alpha2.Component
}

// Interpret reads a template's replicas and per-replica requirements; see
// Replicas for the rules.
func Interpret(obj *unstructured.Unstructured) (Interpretation, error) {
	replicas, req, ok, err := Replicas(obj)
	if err != nil {
		return Interpretation{}, err
	}
	return Interpretation{Replicated: ok, Replicas: replicas, Requirements: req}, nil
}

// Replicas returns the replica count of a replicated workload and the
// requirements of one replica.
//
// Understood kinds are apps/v1 Deployment, StatefulSet and ReplicaSet, whose
// count is spec.replicas (1 when unset), and batch/v1 Job, whose count is
// spec.parallelism (1 when unset) lowered to spec.completions when that is
// smaller. A v1 Pod counts one replica, its own spec. For any other kind ok is false and the object should be treated as
// having no replicas. err is set when an understood kind cannot be decoded or
// asks for a negative count.
//
// req is nil when the pod template neither requests resources nor constrains
// nodes; otherwise it carries the effective pod requests (see
// podRequests), the node claim, the template's priority class and the
// object's namespace.
func Replicas(obj *unstructured.Unstructured) (replicas int32, req *workv1alpha2.ReplicaRequirements, ok bool, err error) {
	gvk := obj.GroupVersionKind()
	var (
		count    *int32
		template *corev1.PodTemplateSpec
	)
	switch {
	case gvk.Group == appsv1.GroupName && gvk.Version == "v1" && gvk.Kind == "Deployment":
		var d appsv1.Deployment
		if err := decode(obj, &d); err != nil {
			return 0, nil, false, err
		}
		count, template = d.Spec.Replicas, &d.Spec.Template
	case gvk.Group == appsv1.GroupName && gvk.Version == "v1" && gvk.Kind == "StatefulSet":
		var s appsv1.StatefulSet
		if err := decode(obj, &s); err != nil {
			return 0, nil, false, err
		}
		count, template = s.Spec.Replicas, &s.Spec.Template
	case gvk.Group == appsv1.GroupName && gvk.Version == "v1" && gvk.Kind == "ReplicaSet":
		var r appsv1.ReplicaSet
		if err := decode(obj, &r); err != nil {
			return 0, nil, false, err
		}
		count, template = r.Spec.Replicas, &r.Spec.Template
	case gvk.Group == batchv1.GroupName && gvk.Version == "v1" && gvk.Kind == "Job":
		var j batchv1.Job
		if err := decode(obj, &j); err != nil {
			return 0, nil, false, err
		}
		count, template = jobParallelism(&j), &j.Spec.Template
	case gvk.Group == "" && gvk.Version == "v1" && gvk.Kind == "Pod":
		// A Pod is one replica of itself, as Karmada counts it.
		var p corev1.Pod
		if err := decode(obj, &p); err != nil {
			return 0, nil, false, err
		}
		template = &corev1.PodTemplateSpec{Spec: p.Spec}
	default:
		return 0, nil, false, nil
	}
	replicas = 1
	if count != nil {
		replicas = *count
	}
	if replicas < 0 {
		return 0, nil, false, fmt.Errorf("%s %s/%s asks for %d replicas", gvk.Kind, obj.GetNamespace(), obj.GetName(), replicas)
	}
	return replicas, requirements(obj.GetNamespace(), &template.Spec), true, nil
}

// jobParallelism returns how many pods of the Job may run at once: its
// parallelism (1 when unset), but no more than its completions. Progress
// recorded in the status is not taken into account.
func jobParallelism(j *batchv1.Job) *int32 {
	p := int32(1)
	if j.Spec.Parallelism != nil {
		p = *j.Spec.Parallelism
	}
	if c := j.Spec.Completions; c != nil && *c < p {
		p = *c
	}
	return &p
}

func decode(obj *unstructured.Unstructured, into any) error {
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(obj.Object, into); err != nil {
		return fmt.Errorf("decode %s %s/%s: %w", obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	return nil
}

// PodRequirements describes one replica of a pod spec in namespace: its
// effective requests, node claim and priority class, or nil when it
// neither requests resources nor constrains nodes.
func PodRequirements(namespace string, spec *corev1.PodSpec) *workv1alpha2.ReplicaRequirements {
	return requirements(namespace, spec)
}

// requirements describes one replica of a pod template, or returns nil when
// the template neither requests resources nor constrains nodes.
func requirements(namespace string, spec *corev1.PodSpec) *workv1alpha2.ReplicaRequirements {
	claim := nodeClaim(spec)
	requests := podRequests(spec)
	if claim == nil && len(requests) == 0 {
		return nil
	}
	return &workv1alpha2.ReplicaRequirements{
		NodeClaim:         claim,
		ResourceRequest:   requests,
		Namespace:         namespace,
		PriorityClassName: spec.PriorityClassName,
	}
}

// nodeClaim gathers the template's hard node constraints: required node
// affinity, node selector and tolerations. It returns nil when there are
// none.
func nodeClaim(spec *corev1.PodSpec) *workv1alpha2.NodeClaim {
	var claim workv1alpha2.NodeClaim
	if a := spec.Affinity; a != nil && a.NodeAffinity != nil {
		claim.HardNodeAffinity = a.NodeAffinity.RequiredDuringSchedulingIgnoredDuringExecution
	}
	if len(spec.NodeSelector) > 0 {
		claim.NodeSelector = spec.NodeSelector
	}
	if len(spec.Tolerations) > 0 {
		claim.Tolerations = spec.Tolerations
	}
	if claim.HardNodeAffinity == nil && claim.NodeSelector == nil && claim.Tolerations == nil {
		return nil
	}
	return &claim
}
