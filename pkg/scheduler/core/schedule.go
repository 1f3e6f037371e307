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

// Package core makes one scheduling decision for a binding: filter the
// clusters, score them, select by spread constraints and divide the
// replicas. It reads a snapshot of clusters and never copies them.
package core

import (
	"context"
	"errors"
	"fmt"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/framework"
)

// Input is what one decision reads.
type Input struct {
	Spec   *workv1alpha2.ResourceBindingSpec
	Status *workv1alpha2.ResourceBindingStatus
	// UID of the binding: ties in replica division are broken by its hash.
	UID string
	// Clusters is the snapshot to choose from; it is read, never modified.
	// A cluster object must not be changed in place once given to the
	// scheduler (informer objects are replaced on update): what is derived
	// from it is cached by object identity.
	Clusters []*clusterv1alpha1.Cluster
}

// Result is the decision.
type Result struct {
	// Clusters is what spec.clusters becomes.
	Clusters []workv1alpha2.TargetCluster
	// AffinityName names the clusterAffinities term used ("" without terms).
	AffinityName string
}

// Steps times the algorithm's steps for metrics; nil funcs are skipped.
type Steps struct {
	Observe func(step string, seconds float64)
}

// Step names, as Karmada's scheduling_algorithm_duration_seconds labels them.
const (
	StepFilter         = "Filter"
	StepScore          = "Score"
	StepSelect         = "Select"
	StepAssignReplicas = "AssignReplicas"
)

// UnschedulableError says why no cluster could take the binding; the
// message is meant for users.
type UnschedulableError struct {
	Message string
	// NoClusterFit is true when filtering left no cluster at all.
	NoClusterFit bool
}

func (e *UnschedulableError) Error() string { return e.Message }

// Scheduler runs the plugins of a framework. It is safe for concurrent use
// when the framework is.
type Scheduler struct {
	fw         *framework.Framework
	steps      Steps
	capacities capacityCache
}

// New returns a scheduler over a framework.
func New(fw *framework.Framework, steps Steps) *Scheduler {
	return &Scheduler{fw: fw, steps: steps}
}

// Schedule decides where the binding's replicas go. With ordered
// clusterAffinities it starts from the term in use and moves to the next
// only when the current one cannot hold the workload.
func (s *Scheduler) Schedule(ctx context.Context, in Input) (Result, error) {
	placement := in.Spec.Placement
	if placement == nil {
		placement = &policyv1alpha1.Placement{}
	}
	terms := affinityTerms(placement, in.Status)
	var errs []error
	for _, term := range terms {
		var clusters []workv1alpha2.TargetCluster
		var err error
		if len(term.overflow) > 0 {
			clusters, err = s.scheduleOverflow(ctx, in, placement, term)
		} else {
			clusters, err = s.scheduleTerm(ctx, in, placement, term.affinity)
		}
		if err == nil {
			return Result{Clusters: clusters, AffinityName: term.name}, nil
		}
		var unsched *UnschedulableError
		if !errors.As(err, &unsched) {
			return Result{}, err
		}
		if term.name != "" {
			err = &UnschedulableError{Message: fmt.Sprintf("affinity %q: %s", term.name, unsched.Message), NoClusterFit: unsched.NoClusterFit}
		}
		errs = append(errs, err)
	}
	return Result{}, joinUnschedulable(errs)
}

type term struct {
	name     string
	affinity *policyv1alpha1.ClusterAffinity
	// overflow are the term's overflow groups, filled in order once the
	// term's own group is full.
	overflow []policyv1alpha1.OverflowClusterAffinity
}

// affinityTerms lists the affinities to try, in order.
func affinityTerms(p *policyv1alpha1.Placement, status *workv1alpha2.ResourceBindingStatus) []term {
	if len(p.ClusterAffinities) == 0 {
		return []term{{affinity: p.ClusterAffinity}}
	}
	start := 0
	if status != nil && status.SchedulerObservedAffinityName != "" {
		for i, t := range p.ClusterAffinities {
			if t.AffinityName == status.SchedulerObservedAffinityName {
				start = i
				break
			}
		}
	}
	out := make([]term, 0, len(p.ClusterAffinities)-start)
	for i := start; i < len(p.ClusterAffinities); i++ {
		t := &p.ClusterAffinities[i]
		out = append(out, term{name: t.AffinityName, affinity: &t.ClusterAffinity, overflow: t.OverflowAffinities})
	}
	return out
}

// joinUnschedulable merges the reasons of every term tried.
func joinUnschedulable(errs []error) error {
	if len(errs) == 1 {
		return errs[0]
	}
	msg := ""
	noFit := true
	for i, err := range errs {
		if i > 0 {
			msg += "; "
		}
		msg += err.Error()
		var u *UnschedulableError
		if errors.As(err, &u) && !u.NoClusterFit {
			noFit = false
		}
	}
	return &UnschedulableError{Message: msg, NoClusterFit: noFit}
}
