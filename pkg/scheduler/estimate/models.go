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

package estimate

import (
	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

// podsPerNode is the pod slots a modeled node is taken to have when its
// grade does not bound pods (the kubelet's default).
const podsPerNode = 110

// grade is one resource model grade with nodes in it: each node is known
// to have at least mins of every resource the models name.
type grade struct {
	nodes int64
	mins  []leftover
}

// gradesOf reads the grades of the cluster's resource models that its
// status counts nodes in. It returns nil when the status has no
// allocatableModelings or they do not match the models, so that the
// estimate falls back to the pooled summary.
func gradesOf(cluster *clusterv1alpha1.Cluster) []grade {
	sum := cluster.Status.ResourceSummary
	models := cluster.Spec.ResourceModels
	if sum == nil || len(sum.AllocatableModelings) == 0 || len(sum.AllocatableModelings) > len(models) {
		return nil
	}
	out := make([]grade, 0, len(sum.AllocatableModelings))
	for i, m := range sum.AllocatableModelings {
		if models[i].Grade != m.Grade {
			return nil
		}
		if m.Count <= 0 {
			continue
		}
		g := grade{nodes: int64(m.Count), mins: make([]leftover, 0, len(models[i].Ranges))}
		for _, r := range models[i].Ranges {
			l := leftover{name: r.Name, whole: read(&r.Min, false)}
			if fitsMilli(&r.Min) {
				l.milliOK, l.milli = true, read(&r.Min, true)
			}
			g.mins = append(g.mins, l)
		}
		out = append(out, g)
	}
	if len(out) == 0 {
		// Every node is full or unschedulable: an empty, not an
		// unknown, answer.
		return []grade{}
	}
	return out
}

// modeledReplicas packs replicas of r into the modeled nodes, each taken
// at its grade's lower bounds, as Karmada's general estimator does. It
// returns false when a requested resource is not modeled (the models say
// nothing about it, so the pooled summary decides).
func modeledReplicas(grades []grade, r *Request) (int64, bool) {
	var total int64
	for gi := range grades {
		g := &grades[gi]
		perNode := int64(podsPerNode)
		if l := g.find(corev1.ResourcePods); l != nil {
			perNode = min(perNode, l.whole)
		}
		for i := range r.items {
			l := g.find(r.items[i].name)
			if l == nil {
				return 0, false
			}
			perNode = min(perNode, l.holds(&r.items[i]))
		}
		total += g.nodes * perNode
	}
	return total, true
}

func (g *grade) find(name corev1.ResourceName) *leftover {
	for i := range g.mins {
		if g.mins[i].name == name {
			return &g.mins[i]
		}
	}
	return nil
}

// holds returns how many requests r fit in l.
func (l *leftover) holds(r *requested) int64 {
	left, per := l.whole, r.whole
	if l.milliOK && r.milliOK {
		left, per = l.milli, r.milli
	}
	return left / max(per, 1)
}
