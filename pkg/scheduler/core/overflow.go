package core

import (
	"context"
	"errors"
	"fmt"
	"time"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/estimate"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/spread"
)

// scheduleOverflow schedules within a term that has overflow groups, as
// Karmada does: a cluster belongs to the term's own group (tier 0) when
// the term's affinity admits it, else to the first overflow group that
// does; the tiers are filled in order, so a scale-up spills into the
// overflow groups only once the groups before are full, and a scale-down
// empties the last groups first. Spread constraints do not apply here.
func (s *Scheduler) scheduleOverflow(ctx context.Context, in Input, placement *policyv1alpha1.Placement, t term) ([]workv1alpha2.TargetCluster, error) {
	affinities := []*policyv1alpha1.ClusterAffinity{t.affinity}
	for i := range t.overflow {
		affinities = append(affinities, &t.overflow[i].ClusterAffinity)
	}
	start := time.Now()
	tiers, firstDiagnosis, err := s.tiers(ctx, in, affinities)
	s.observe(StepFilter, start)
	if err != nil {
		return nil, err
	}
	total := 0
	for _, tier := range tiers {
		total += len(tier)
	}
	if total == 0 {
		fit := &framework.FitError{NumAllClusters: len(in.Clusters), Diagnosis: firstDiagnosis}
		return nil, &UnschedulableError{Message: fit.Error(), NoClusterFit: true}
	}

	start = time.Now()
	out, err := fillTiers(in, placement, tiers, &s.capacities)
	s.observe(StepAssignReplicas, start)
	if err != nil {
		var unsched *UnschedulableError
		if errors.As(err, &unsched) {
			unsched.Message = fmt.Sprintf("the term's group and its %d overflow group(s) %s", len(t.overflow), unsched.Message)
		}
		return nil, err
	}
	return out, nil
}

// fillTiers shares the binding's replicas among the tiers. What the tiers
// run now stays where it is (unless a reschedule was asked for): replicas
// added go to the first tiers with room, replicas taken away leave the
// last tiers first; inside a tier, the placement's strategy divides its
// share, steady as elsewhere.
func fillTiers(in Input, placement *policyv1alpha1.Placement, tiers [][]spread.Candidate, capacities *capacityCache) ([]workv1alpha2.TargetCluster, error) {
	request := estimate.RequestOf(in.Spec.ReplicaRequirements)
	previous := previousReplicas(in.Spec)
	if fresh(in) {
		previous = map[string]int32{}
	}
	shares := make([]int32, len(tiers))
	var running int32
	for i, tier := range tiers {
		capacities.fill(tier, &request)
		for _, c := range tier {
			shares[i] += previous[c.Cluster.Name]
		}
		running += shares[i]
	}
	want := in.Spec.Replicas
	switch {
	case running > want:
		cut := running - want
		for i := len(tiers) - 1; i >= 0 && cut > 0; i-- {
			n := min(cut, shares[i])
			shares[i] -= n
			cut -= n
		}
	case running < want:
		add := want - running
		for i, tier := range tiers {
			var free int64
			for _, c := range tier {
				free += c.Available
			}
			n := add
			if free < int64(n) {
				n = int32(free)
			}
			shares[i] += n
			add -= n
			if add == 0 {
				break
			}
		}
		if add > 0 {
			return nil, &UnschedulableError{Message: fmt.Sprintf("can take %d replica(s), fewer than the %d needed", want-add, want)}
		}
	}
	var out []workv1alpha2.TargetCluster
	for i, tier := range tiers {
		if shares[i] == 0 {
			continue
		}
		got, err := assignN(in, placement, tier, shares[i])
		if err != nil {
			return nil, err
		}
		out = append(out, got...)
	}
	return out, nil
}

// tiers runs the filters once per affinity, each over the clusters no
// earlier one admitted, and scores each tier's clusters.
func (s *Scheduler) tiers(ctx context.Context, in Input, affinities []*policyv1alpha1.ClusterAffinity) ([][]spread.Candidate, framework.Diagnosis, error) {
	placed := map[string]bool{}
	var first framework.Diagnosis
	out := make([][]spread.Candidate, len(affinities))
	for i, a := range affinities {
		rest := make([]*clusterv1alpha1.Cluster, 0, len(in.Clusters))
		for _, c := range in.Clusters {
			if !placed[c.Name] {
				rest = append(rest, c)
			}
		}
		state := framework.NewCycleState()
		state.SetClusterAffinity(a)
		feasible, diagnosis, err := s.fw.RunFilterPlugins(ctx, state, in.Spec, in.Status, rest)
		if err != nil {
			return nil, first, fmt.Errorf("filter clusters: %w", err)
		}
		if i == 0 {
			first = diagnosis
		}
		scores, err := s.fw.RunScorePlugins(ctx, state, in.Spec, feasible)
		if err != nil {
			return nil, first, fmt.Errorf("score clusters: %w", err)
		}
		for j, c := range feasible {
			placed[c.Name] = true
			out[i] = append(out[i], spread.Candidate{Cluster: c, Score: scores[j]})
		}
	}
	return out, first, nil
}
