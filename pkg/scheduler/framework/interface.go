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

package framework

import (
	"context"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Bounds of the score a single ScorePlugin may give a cluster.
const (
	MinClusterScore int64 = 0
	MaxClusterScore int64 = 100
)

// Plugin is anything the framework can host.
type Plugin interface {
	// Name is the key of the plugin in the Registry and in Status.Plugin.
	Name() string
}

// PreFilterPlugin runs once per binding before any Filter call. It is the
// place to compile selectors and index lists into the CycleState so that
// Filter does no per-cluster parsing. A non-success status stops the
// pass: Unschedulable rejects every cluster with that status, Error aborts.
type PreFilterPlugin interface {
	Plugin
	PreFilter(ctx context.Context, state *CycleState, spec *workv1alpha2.ResourceBindingSpec,
		status *workv1alpha2.ResourceBindingStatus) *Status
}

// FilterPlugin decides whether one cluster may take the binding. It is called
// once per cluster, so it should not allocate on the success path.
type FilterPlugin interface {
	Plugin
	Filter(ctx context.Context, state *CycleState, spec *workv1alpha2.ResourceBindingSpec,
		status *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *Status
}

// ScorePlugin ranks a feasible cluster between MinClusterScore and
// MaxClusterScore; the framework sums the scores of all score plugins.
type ScorePlugin interface {
	Plugin
	Score(ctx context.Context, state *CycleState, spec *workv1alpha2.ResourceBindingSpec,
		cluster *clusterv1alpha1.Cluster) (int64, *Status)
}

// PluginFactory builds one plugin instance.
type PluginFactory func() (Plugin, error)

// Registry maps plugin names to their factories.
type Registry map[string]PluginFactory
