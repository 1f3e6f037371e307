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
	"time"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
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
	needAvailable := divided && (len(constraints) > 0 || usesCapacity(placement))
	if needAvailable {
		for i := range candidates {
			candidates[i].Available = estimate.AvailableReplicas(candidates[i].Cluster, in.Spec.ReplicaRequirements)
		}
	}
	selected := candidates
	if len(constraints) > 0 {
		selected, err = spread.Select(candidates, constraints, in.Spec.Replicas, divided)
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
	names := make([]string, len(selected))
	for i, c := range selected {
		names[i] = c.Cluster.Name
	}
	rs := p.ReplicaScheduling
	replicas := in.Spec.Replicas
	// Kinds without replicas, and Duplicated workloads, go whole everywhere.
	if replicas == 0 || rs == nil || rs.ReplicaSchedulingType == policyv1alpha1.ReplicaSchedulingTypeDuplicated {
		return divide.Duplicated(replicas, names), nil
	}
	previous := map[string]int32{}
	for _, tc := range in.Spec.Clusters {
		previous[tc.Name] = tc.Replicas
	}
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
		return nil, &UnschedulableError{Message: fmt.Sprintf("the %d selected cluster(s) can take %d more replica(s), fewer than the %d needed",
			len(selected), capErr.Available, capErr.Needed)}
	}
	return out, err
}

// staticWeights sets each candidate's weight to the largest weight among
// the rules whose target matches it (0 when none does; divide then gives
// every cluster weight 1 if no rule matched any).
func staticWeights(cands []divide.Candidate, selected []spread.Candidate, prefs *policyv1alpha1.ClusterPreferences) error {
	if prefs == nil || len(prefs.StaticWeightList) == 0 {
		return nil
	}
	matchers := make([]func(*clusterv1alpha1.Cluster) bool, len(prefs.StaticWeightList))
	for i := range prefs.StaticWeightList {
		m, err := newMatcher(&prefs.StaticWeightList[i].TargetCluster)
		if err != nil {
			return fmt.Errorf("staticWeightList[%d].targetCluster: %w", i, err)
		}
		matchers[i] = m
	}
	for i, c := range selected {
		for r, rule := range prefs.StaticWeightList {
			if rule.Weight > cands[i].Weight && matchers[r](c.Cluster) {
				cands[i].Weight = rule.Weight
			}
		}
	}
	return nil
}
