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
	"errors"
	"fmt"
	"io"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
)

// Placement is a decision and, for every cluster left out, why.
type Placement struct {
	// Clusters is what the binding's spec.clusters would become; empty
	// when the binding cannot be scheduled.
	Clusters []workv1alpha2.TargetCluster `json:"clusters"`
	// Excluded lists, in the order the clusters were given, each cluster
	// that is not in Clusters and why.
	Excluded []Exclusion `json:"excluded,omitempty"`
	// AffinityName names the clusterAffinities term used ("" without terms).
	AffinityName string `json:"affinityName,omitempty"`
	// Replicas is the workload's replica count (0 for kinds without
	// replicas, which go whole to every cluster chosen).
	Replicas int32 `json:"replicas"`
	// Unschedulable is the reason the scheduler would record when no
	// placement fits.
	Unschedulable string `json:"unschedulable,omitempty"`
}

// Exclusion is a cluster left out and why.
type Exclusion struct {
	Cluster string `json:"cluster"`
	// Plugin names the filter plugin that rejected the cluster; empty when
	// the cluster passed the filters and spread selection or the replica
	// division left it out.
	Plugin string `json:"plugin,omitempty"`
	Reason string `json:"reason"`
}

// Schedule decides, with the scheduler's own code, where the binding the
// documents describe would go among clusters plus any Clusters in docs.
// The documents are as ReadFiles returns them (and are not modified); notes
// for the user go to warn.
//
// When the binding cannot be scheduled, Schedule returns the Placement,
// every cluster in Excluded, and a *core.UnschedulableError.
func Schedule(ctx context.Context, clusters []*clusterv1alpha1.Cluster, docs []Document, warn io.Writer) (*Placement, error) {
	copied := make([]Document, len(docs))
	for i, d := range docs {
		copied[i] = Document{Source: d.Source, Object: d.Object.DeepCopyObject()}
	}
	in, err := classify(clusters, copied)
	if err != nil {
		return nil, err
	}
	b, err := in.toBinding(warn)
	if err != nil {
		return nil, err
	}
	fw, err := plugins.NewDefaultFramework(nil) // a preview knows no other workload
	if err != nil {
		return nil, fmt.Errorf("build the scheduler framework: %w", err)
	}
	res, err := core.New(fw, core.Steps{}).Schedule(ctx, core.Input{
		Spec: b.spec, Status: b.status, UID: b.uid, Clusters: in.clusters,
	})
	var unsched *core.UnschedulableError
	if err != nil && !errors.As(err, &unsched) {
		return nil, err
	}
	p := &Placement{Clusters: res.Clusters, AffinityName: res.AffinityName, Replicas: b.spec.Replicas}
	if unsched != nil {
		p.Unschedulable = unsched.Message
	}
	if p.Excluded, err = explain(ctx, fw, b, in.clusters, res, unsched); err != nil {
		return nil, err
	}
	if unsched != nil {
		return p, unsched
	}
	return p, nil
}
