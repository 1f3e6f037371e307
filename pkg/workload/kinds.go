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
	"encoding/json"
	"fmt"
	"maps"
	"sort"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// interpreter is what mco knows of one kind. A nil function falls back to
// the default: the whole status is reflected, the object is healthy once
// it exists, and the template's status is not aggregated.
type interpreter struct {
	reflect func(obj *unstructured.Unstructured) (any, error)
	health  func(obj *unstructured.Unstructured) workv1alpha2.ResourceHealth
	// observe is reflect and health from one decoding, for kinds with
	// both (see Observe).
	observe   func(obj *unstructured.Unstructured) (any, workv1alpha2.ResourceHealth, error)
	aggregate func(template *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem, now metav1.Time) (map[string]any, error)
}

// interpreters holds the kinds mco interprets, keyed by "group/Kind" (see
// kindOf). Each kind's rules live in the file named after it.
var interpreters = map[string]interpreter{
	"apps/Deployment":  typedRules(reflectDeployment, deploymentHealthy, aggregator(aggregateDeployment)),
	"apps/StatefulSet": typedRules(reflectStatefulSet, statefulSetHealthy, aggregator(aggregateStatefulSet)),
	"apps/DaemonSet":   typedRules(reflectDaemonSet, daemonSetHealthy, aggregator(aggregateDaemonSet)),
	"apps/ReplicaSet":  typedRules(reflectReplicaSet, replicaSetHealthy, aggregator(aggregateReplicaSet)),
	"batch/Job":        typedRules(reflectJob, jobHealthy, aggregator(aggregateJob)),
	"/Service":         typedRules(reflectService, serviceHealthy, aggregator(aggregateService)),
	"/PersistentVolumeClaim": {
		aggregate: aggregator(aggregatePersistentVolumeClaim),
	},
	"/PersistentVolume":                   {aggregate: aggregator(aggregatePV)},
	"/Pod":                                {health: checker(podHealthy), aggregate: aggregator(aggregatePod)},
	"networking.k8s.io/Ingress":           {health: checker(ingressHealthy), aggregate: aggregator(aggregateIngress)},
	"batch/CronJob":                       {aggregate: aggregator(aggregateCronJob)},
	"policy/PodDisruptionBudget":          {health: checker(pdbHealthy), aggregate: aggregator(aggregatePDB)},
	"autoscaling/HorizontalPodAutoscaler": {aggregate: aggregator(aggregateHPA)},
}

// reflector decodes a member object into its typed form O and records what
// pick returns of it; templateGen is the template generation the object was
// rendered from.
func reflector[O any](pick func(o *O, templateGen int64) any) func(*unstructured.Unstructured) (any, error) {
	return func(obj *unstructured.Unstructured) (any, error) {
		var o O
		if err := decodeSlim(obj, &o); err != nil {
			return nil, err
		}
		return pick(&o, templateGeneration(obj)), nil
	}
}

// typedRules are the rules of a kind whose status and health are both
// read from its typed form O: reflect, health, and the two from one
// decoding (observe), plus aggregate.
func typedRules[O any](pick func(o *O, templateGen int64) any, healthy func(o *O) bool,
	aggregate func(*unstructured.Unstructured, []workv1alpha2.AggregatedStatusItem, metav1.Time) (map[string]any, error),
) interpreter {
	return interpreter{reflect: reflector(pick), health: checker(healthy), observe: observer(pick, healthy), aggregate: aggregate}
}

// observer decodes a member object into its typed form O once, and
// records what pick returns of it and what healthy says of it; an object
// that cannot be decoded has no status and unknown health.
func observer[O any](pick func(o *O, templateGen int64) any, healthy func(o *O) bool) func(*unstructured.Unstructured) (any, workv1alpha2.ResourceHealth, error) {
	return func(obj *unstructured.Unstructured) (any, workv1alpha2.ResourceHealth, error) {
		var o O
		if err := decodeSlim(obj, &o); err != nil {
			return nil, workv1alpha2.ResourceUnknown, err
		}
		health := workv1alpha2.ResourceUnhealthy
		if healthy(&o) {
			health = workv1alpha2.ResourceHealthy
		}
		return pick(&o, templateGeneration(obj)), health, nil
	}
}

// checker decodes a member object into its typed form O and asks healthy;
// an object that cannot be decoded has unknown health.
func checker[O any](healthy func(o *O) bool) func(*unstructured.Unstructured) workv1alpha2.ResourceHealth {
	return func(obj *unstructured.Unstructured) workv1alpha2.ResourceHealth {
		var o O
		if err := decodeSlim(obj, &o); err != nil {
			return workv1alpha2.ResourceUnknown
		}
		if healthy(&o) {
			return workv1alpha2.ResourceHealthy
		}
		return workv1alpha2.ResourceUnhealthy
	}
}

// aggregator decodes a template into its typed form O and the members'
// reports into R, and encodes the typed status S that agg computes, so
// that what is written always round-trips through the kube types.
func aggregator[O, R, S any](agg func(template *O, members []member[R], now metav1.Time) S) func(*unstructured.Unstructured, []workv1alpha2.AggregatedStatusItem, metav1.Time) (map[string]any, error) {
	return func(template *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem, now metav1.Time) (map[string]any, error) {
		var o O
		if err := decodeSlim(template, &o); err != nil {
			return nil, err
		}
		members, err := decodeMembers[R](items)
		if err != nil {
			return nil, err
		}
		s := agg(&o, members, now)
		out, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&s)
		if err != nil {
			return nil, fmt.Errorf("encode status of %s %s/%s: %w", template.GetKind(), template.GetNamespace(), template.GetName(), err)
		}
		return out, nil
	}
}

// decodeSlim decodes obj into its typed form without the pod template and
// the managed fields: no status, health or aggregation rule reads them, and
// they are most of a workload's bulk. obj is not changed.
func decodeSlim(obj *unstructured.Unstructured, into any) error {
	return decode(&unstructured.Unstructured{Object: slim(obj.Object)}, into)
}

// slim returns a shallow copy of an object without metadata.managedFields
// and spec.template.
func slim(obj map[string]any) map[string]any {
	out := maps.Clone(obj)
	for _, f := range []struct{ parent, field string }{{"metadata", "managedFields"}, {"spec", "template"}} {
		if m, ok := obj[f.parent].(map[string]any); ok {
			if _, has := m[f.field]; has {
				m = maps.Clone(m)
				delete(m, f.field)
				out[f.parent] = m
			}
		}
	}
	return out
}

// member is one cluster's report of a member object.
type member[R any] struct {
	cluster string
	status  *R // nil when the cluster has reported nothing yet
}

// decodeMembers reads the members' reports, in cluster order. An item
// without status, or with an empty one, has not reported.
func decodeMembers[R any](items []workv1alpha2.AggregatedStatusItem) ([]member[R], error) {
	out := make([]member[R], 0, len(items))
	for _, it := range items {
		m := member[R]{cluster: it.ClusterName}
		if it.Status != nil && len(it.Status.Raw) > 0 {
			var s R
			if err := json.Unmarshal(it.Status.Raw, &s); err != nil {
				return nil, fmt.Errorf("decode status reported by cluster %s: %w", it.ClusterName, err)
			}
			m.status = &s
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].cluster < out[j].cluster })
	return out, nil
}

// generations is what a member reports of the generations of its object.
type generations struct {
	observed int64 // status.observedGeneration of the member object
	current  int64 // metadata.generation of the member object
	template int64 // template generation the member object was rendered from
}

// reporter is a member report carrying generations.
type reporter interface {
	generations() generations
}

// observedGeneration is the template's status.observedGeneration once its
// members have reported: the template's generation when every member runs
// what was rendered from it and its controller has observed that, else
// what the template recorded before. A member that has not reported has
// not caught up; a template without members keeps what it recorded.
func observedGeneration[R reporter](generation, recorded int64, members []member[R]) int64 {
	if allCaughtUp(generation, members) {
		return generation
	}
	return recorded
}

// allCaughtUp tells whether there are members and each has caught up with
// template generation generation.
func allCaughtUp[R reporter](generation int64, members []member[R]) bool {
	if len(members) == 0 {
		return false
	}
	for _, m := range members {
		if m.status == nil {
			return false
		}
		g := (*m.status).generations()
		if g.template != generation || g.observed != g.current {
			return false
		}
	}
	return true
}

// replicasOrOne is a spec.replicas value, 1 when unset.
func replicasOrOne(replicas *int32) int32 {
	if replicas == nil {
		return 1
	}
	return *replicas
}
