package core

import (
	"context"
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
// does; the tiers are filled in order, each taking what it can hold (room
// left plus what it runs already) of what is left, divided inside the tier
// by the placement's own strategy. So a scale-up spills into the overflow
// groups only once the groups before are full, and a scale-down empties
// the last groups first. Spread constraints do not apply here.
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
	request := estimate.RequestOf(in.Spec.ReplicaRequirements)
	previous := previousReplicas(in.Spec)
	var out []workv1alpha2.TargetCluster
	left := in.Spec.Replicas
	for _, tier := range tiers {
		if left == 0 {
			break
		}
		if len(tier) == 0 {
			continue
		}
		s.capacities.fill(tier, &request)
		var room int64
		for _, c := range tier {
			room += c.Available + int64(previous[c.Cluster.Name])
		}
		share := left
		if room < int64(share) {
			share = int32(room)
		}
		if share == 0 {
			continue
		}
		got, err := assignN(in, placement, tier, share)
		if err != nil {
			s.observe(StepAssignReplicas, start)
			return nil, err
		}
		out = append(out, got...)
		left -= share
	}
	s.observe(StepAssignReplicas, start)
	if left > 0 {
		return nil, &UnschedulableError{Message: fmt.Sprintf("the term's group and its %d overflow group(s) can take %d replica(s), fewer than the %d needed",
			len(t.overflow), in.Spec.Replicas-left, in.Spec.Replicas)}
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
