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

package core

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/divide"
	"github.com/mco-org/mco/pkg/scheduler/estimate"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/spread"
)

// scheduleTerm schedules within one cluster affinity.
func (s *Scheduler) scheduleTerm(ctx context.Context, in Input, placement *policyv1alpha1.Placement, affinity *policyv1alpha1.ClusterAffinity) ([]workv1alpha2.TargetCluster, error) {
	state := framework.NewCycleState()
	state.SetClusterAffinity(affinity)

	start := time.Now()
	feasible, diagnosis, err := s.fw.RunFilterPlugins(ctx, state, in.Spec, in.Status, in.Clusters)
	s.observe(StepFilter, start)
	if err != nil {
		return nil, fmt.Errorf("filter clusters: %w", err)
	}
	if len(feasible) == 0 {
		fit := &framework.FitError{NumAllClusters: len(in.Clusters), Diagnosis: diagnosis}
		return nil, &UnschedulableError{Message: fit.Error(), NoClusterFit: true}
	}

	start = time.Now()
	scores, err := s.fw.RunScorePlugins(ctx, state, in.Spec, feasible)
	s.observe(StepScore, start)
	if err != nil {
		return nil, fmt.Errorf("score clusters: %w", err)
	}

	start = time.Now()
	candidates := make([]spread.Candidate, len(feasible))
	for i, c := range feasible {
		candidates[i] = spread.Candidate{Cluster: c, Score: scores[i]}
	}
	constraints, divided := spread.ForPlacement(placement)
	// Spread selection ranks clusters by room even for Duplicated
	// bindings, as Karmada's does; only Divided ones must fit in it.
	switch {
	case len(in.Spec.Components) > 0 && len(constraints) > 0:
		// A workload of several components goes whole: spread selection
		// ranks clusters by the complete sets they can hold.
		fillSets(candidates, in.Spec.Components)
	case len(constraints) > 0 || divided && usesCapacity(placement):
		request := estimate.RequestOf(in.Spec.ReplicaRequirements)
		s.capacities.fill(candidates, &request)
	}
	selected := candidates
	if len(constraints) > 0 {
		// Spread selection counts, as Karmada's does, the replicas a
		// cluster already runs for the binding as room it has for it;
		// the division counts them apart (Candidate.Previous).
		running := previousReplicas(in.Spec)
		addRunning(candidates, running, 1)
		selected, err = spread.Select(candidates, constraints, in.Spec.Replicas, divided)
		addRunning(selected, running, -1)
		if err != nil {
			s.observe(StepSelect, start)
			var se *spread.Error
			if errors.As(err, &se) {
				return nil, &UnschedulableError{Message: se.Error()}
			}
			return nil, fmt.Errorf("select clusters: %w", err)
		}
	}
	s.observe(StepSelect, start)

	start = time.Now()
	out, err := assign(in, placement, selected)
	s.observe(StepAssignReplicas, start)
	return out, err
}

func (s *Scheduler) observe(step string, since time.Time) {
	if s.steps.Observe != nil {
		s.steps.Observe(step, time.Since(since).Seconds())
	}
}

// usesCapacity tells whether the division weighs clusters by capacity.
func usesCapacity(p *policyv1alpha1.Placement) bool {
	rs := p.ReplicaScheduling
	if rs == nil || rs.ReplicaSchedulingType == policyv1alpha1.ReplicaSchedulingTypeDuplicated {
		return false
	}
	if rs.ReplicaDivisionPreference == policyv1alpha1.ReplicaDivisionPreferenceAggregated {
		return true
	}
	return rs.WeightPreference != nil && rs.WeightPreference.DynamicWeight == policyv1alpha1.DynamicWeightByAvailableReplicas
}

// fresh tells whether a reschedule was requested after the last decision.
func fresh(in Input) bool {
	t := in.Spec.RescheduleTriggeredAt
	if t == nil {
		return false
	}
	return in.Status == nil || in.Status.LastScheduledTime == nil || t.After(in.Status.LastScheduledTime.Time)
}

// assign divides the replicas over the selected clusters.
func assign(in Input, p *policyv1alpha1.Placement, selected []spread.Candidate) ([]workv1alpha2.TargetCluster, error) {
	return assignN(in, p, selected, in.Spec.Replicas)
}

// assignN divides replicas (the binding's, or a share of them) over the
// selected clusters.
func assignN(in Input, p *policyv1alpha1.Placement, selected []spread.Candidate, replicas int32) ([]workv1alpha2.TargetCluster, error) {
	names := make([]string, len(selected))
	for i, c := range selected {
		names[i] = c.Cluster.Name
	}
	rs := p.ReplicaScheduling
	// Kinds without replicas, and Duplicated workloads, go whole everywhere.
	if replicas == 0 || rs == nil || rs.ReplicaSchedulingType == policyv1alpha1.ReplicaSchedulingTypeDuplicated {
		return divide.Duplicated(replicas, names), nil
	}
	previous := previousReplicas(in.Spec)
	cands := make([]divide.Candidate, len(selected))
	for i, c := range selected {
		cands[i] = divide.Candidate{Name: c.Cluster.Name, Previous: previous[c.Cluster.Name], Available: c.Available}
	}
	var out []workv1alpha2.TargetCluster
	var err error
	switch {
	case rs.ReplicaDivisionPreference == policyv1alpha1.ReplicaDivisionPreferenceAggregated:
		out, err = divide.Aggregated(replicas, cands, in.UID, fresh(in))
	case rs.WeightPreference != nil && rs.WeightPreference.DynamicWeight == policyv1alpha1.DynamicWeightByAvailableReplicas:
		out, err = divide.DynamicWeight(replicas, cands, in.UID, fresh(in))
	default:
		if err := staticWeights(cands, selected, rs.WeightPreference); err != nil {
			return nil, err
		}
		out = divide.StaticWeight(replicas, cands, in.UID)
	}
	var capErr *divide.InsufficientCapacityError
	if errors.As(err, &capErr) {
		return nil, &UnschedulableError{Message: fmt.Sprintf("the %d selected cluster(s) can take %d more replica(s), fewer than the %d needed (%s)",
			len(selected), capErr.Available, capErr.Needed, roomOf(selected))}
	}
	return out, err
}

// roomOf lists what the first clusters can take, for a person reading why
// a binding is unschedulable.
func roomOf(selected []spread.Candidate) string {
	const shown = 5
	parts := make([]string, 0, min(len(selected), shown)+1)
	for i, c := range selected {
		if i == shown {
			parts = append(parts, fmt.Sprintf("%d more", len(selected)-shown))
			break
		}
		parts = append(parts, fmt.Sprintf("%s: %d", c.Cluster.Name, c.Available))
	}
	return "room " + strings.Join(parts, ", ") + "; a cluster that reports resource models holds only replicas that fit on one of its nodes"
}

// previousReplicas maps the clusters of spec.clusters to their replicas.
func previousReplicas(spec *workv1alpha2.ResourceBindingSpec) map[string]int32 {
	previous := make(map[string]int32, len(spec.Clusters))
	for _, tc := range spec.Clusters {
		previous[tc.Name] = max(tc.Replicas, 0)
	}
	return previous
}

// addRunning adds (sign 1) or takes back (sign -1) the replicas each
// candidate's cluster already runs to or from its Available. Amounts too
// large to matter are left alone, so the sum cannot overflow.
func addRunning(candidates []spread.Candidate, running map[string]int32, sign int64) {
	if len(running) == 0 {
		return
	}
	for i := range candidates {
		if r := int64(running[candidates[i].Cluster.Name]); r > 0 && candidates[i].Available < divide.Unbounded/2 {
			candidates[i].Available += sign * r
		}
	}
}
