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

package plan

import (
	"context"
	"fmt"
	"strings"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/spread"
)

// Reasons for clusters that passed the filters and were still left out.
const (
	reasonSpread   = "passed the filters; left out by the spread constraints"
	reasonDivision = "passed the filters; the replica division gave it no replicas"
	reasonPassed   = "passed the filters"
)

// explain says why each cluster not in res was left out: it runs the
// framework's filters again, with the affinity term the decision used (or,
// when nothing fit, every term the scheduler tried), and takes each
// rejected cluster's status, naming its plugin. A cluster that passed was
// left out by spread selection or the division; when nothing fit, by the
// reason in unsched.
func explain(ctx context.Context, fw *framework.Framework, b *binding, clusters []*clusterv1alpha1.Cluster,
	res core.Result, unsched *core.UnschedulableError) ([]Exclusion, error) {
	placement := b.spec.Placement
	if placement == nil {
		placement = &policyv1alpha1.Placement{}
	}
	terms := triedTerms(placement, b)
	if unsched == nil {
		terms = []affinityTerm{usedTerm(placement, res.AffinityName)}
	}
	diagnoses := make([]framework.Diagnosis, len(terms))
	for i, t := range terms {
		state := framework.NewCycleState()
		state.SetClusterAffinity(t.affinity)
		_, d, err := fw.RunFilterPlugins(ctx, state, b.spec, b.status, clusters)
		if err != nil {
			return nil, fmt.Errorf("filter clusters: %w", err)
		}
		diagnoses[i] = d
	}
	chosen := map[string]bool{}
	for _, tc := range res.Clusters {
		chosen[tc.Name] = true
	}
	passed := reasonDivision
	if constraints, _ := spread.ForPlacement(placement); len(constraints) > 0 {
		passed = reasonSpread
	}
	if unsched != nil {
		passed = reasonPassed
		if len(terms) == 1 {
			passed += "; " + unsched.Message
		}
	}
	var out []Exclusion
	for _, c := range clusters {
		if chosen[c.Name] {
			continue
		}
		e := Exclusion{Cluster: c.Name}
		reasons := make([]string, len(terms))
		for i, t := range terms {
			reasons[i] = passed
			if st := diagnoses[i].StatusOf(c.Name); st != nil {
				reasons[i] = st.Message()
				if e.Plugin == "" {
					e.Plugin = st.Plugin()
				}
			}
			if len(terms) > 1 {
				reasons[i] = fmt.Sprintf("affinity %q: %s", t.name, reasons[i])
			}
		}
		e.Reason = strings.Join(reasons, "; ")
		out = append(out, e)
	}
	return out, nil
}

// affinityTerm is one cluster affinity the scheduler filters with.
type affinityTerm struct {
	name     string
	affinity *policyv1alpha1.ClusterAffinity
}

// usedTerm is the affinity of the term named name, or the placement's
// clusterAffinity when it has no terms.
func usedTerm(p *policyv1alpha1.Placement, name string) affinityTerm {
	for i := range p.ClusterAffinities {
		if t := &p.ClusterAffinities[i]; t.AffinityName == name {
			return affinityTerm{name: name, affinity: &t.ClusterAffinity}
		}
	}
	return affinityTerm{affinity: p.ClusterAffinity}
}

// triedTerms lists the terms the scheduler tries, as it does: from the one
// the binding's status says is in use, in order.
func triedTerms(p *policyv1alpha1.Placement, b *binding) []affinityTerm {
	if len(p.ClusterAffinities) == 0 {
		return []affinityTerm{{affinity: p.ClusterAffinity}}
	}
	start := 0
	if b.status != nil {
		for i, t := range p.ClusterAffinities {
			if t.AffinityName == b.status.SchedulerObservedAffinityName {
				start = i
				break
			}
		}
	}
	var out []affinityTerm
	for i := start; i < len(p.ClusterAffinities); i++ {
		t := &p.ClusterAffinities[i]
		out = append(out, affinityTerm{name: t.AffinityName, affinity: &t.ClusterAffinity})
	}
	return out
}
