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
	"fmt"
	"time"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// ctxCheckInterval is how many clusters are filtered between two looks at
// the context, so cancellation is noticed without a call per cluster.
const ctxCheckInterval = 256

// Framework runs a fixed, ordered set of plugins for one binding at a time.
// It is safe for concurrent use as long as its plugins are; each binding
// brings its own CycleState.
type Framework struct {
	preFilters []PreFilterPlugin
	filters    []FilterPlugin
	scorers    []ScorePlugin
	obs        *observing
}

// New builds the plugins named in names, in that order, from registry. A
// plugin takes part in every extension point it implements; the order of
// names is the order in which filters run.
func New(registry Registry, names []string) (*Framework, error) {
	f := &Framework{}
	seen := make(map[string]bool, len(names))
	for _, name := range names {
		if seen[name] {
			return nil, fmt.Errorf("plugin %q is listed twice", name)
		}
		seen[name] = true
		factory, ok := registry[name]
		if !ok {
			return nil, fmt.Errorf("plugin %q is not registered", name)
		}
		p, err := factory()
		if err != nil {
			return nil, fmt.Errorf("build plugin %q: %w", name, err)
		}
		if p.Name() != name {
			return nil, fmt.Errorf("plugin registered as %q calls itself %q", name, p.Name())
		}
		hooked := false
		if pf, ok := p.(PreFilterPlugin); ok {
			f.preFilters, hooked = append(f.preFilters, pf), true
		}
		if fp, ok := p.(FilterPlugin); ok {
			f.filters, hooked = append(f.filters, fp), true
		}
		if sp, ok := p.(ScorePlugin); ok {
			f.scorers, hooked = append(f.scorers, sp), true
		}
		if !hooked {
			return nil, fmt.Errorf("plugin %q implements no extension point", name)
		}
	}
	return f, nil
}

// FilterPluginNames lists the filter plugins in the order they run.
func (f *Framework) FilterPluginNames() []string {
	names := make([]string, len(f.filters))
	for i, p := range f.filters {
		names[i] = p.Name()
	}
	return names
}

// ScorePluginNames lists the score plugins.
func (f *Framework) ScorePluginNames() []string {
	names := make([]string, len(f.scorers))
	for i, p := range f.scorers {
		names[i] = p.Name()
	}
	return names
}

// RunFilterPlugins runs the pre-filters once and then the filters on every
// cluster, stopping at the first filter that rejects it. It returns the
// feasible clusters in input order and, for the others, the rejecting
// status. An Error status from any plugin aborts the pass with an error.
// An empty feasible list is not an error; wrap the diagnosis in a FitError.
func (f *Framework) RunFilterPlugins(ctx context.Context, state *CycleState,
	spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus,
	clusters []*clusterv1alpha1.Cluster) ([]*clusterv1alpha1.Cluster, Diagnosis, error) {
	var diagnosis Diagnosis
	sample := f.sampled()
	for _, p := range f.preFilters {
		start := time.Now()
		st := p.PreFilter(ctx, state, spec, status)
		if f.obs != nil {
			f.observePlugin(p.Name(), ExtensionPreFilter, st, start)
		}
		switch st.Code() {
		case Success:
			continue
		case Unschedulable:
			st = attribute(st, p.Name())
			diagnosis.Rejected = make([]Rejection, len(clusters))
			for i, cluster := range clusters {
				diagnosis.Rejected[i] = Rejection{Cluster: cluster.Name, Status: st}
			}
			return nil, diagnosis, nil
		default:
			return nil, diagnosis, fmt.Errorf("plugin %s: %w", p.Name(), st.AsError())
		}
	}

	start := time.Now()
	var result *Status
	defer func() { f.observePoint(ExtensionFilter, result, start) }()
	feasible := make([]*clusterv1alpha1.Cluster, 0, len(clusters))
	for i, cluster := range clusters {
		if i%ctxCheckInterval == 0 {
			if err := ctx.Err(); err != nil {
				result = AsStatus(err)
				return nil, diagnosis, err
			}
		}
		st, name := f.filterOne(ctx, state, spec, status, cluster, sample)
		switch st.Code() {
		case Success:
			feasible = append(feasible, cluster)
		case Unschedulable:
			diagnosis.Rejected = append(diagnosis.Rejected, Rejection{Cluster: cluster.Name, Status: attribute(st, name)})
		default:
			result = st
			return nil, diagnosis, fmt.Errorf("plugin %s on cluster %q: %w", name, cluster.Name, st.AsError())
		}
	}
	if len(feasible) == 0 && len(clusters) > 0 {
		result = NewStatus(Unschedulable)
	}
	return feasible, diagnosis, nil
}

// filterOne runs the filters on one cluster and returns the first
// non-success status with the name of the plugin that gave it.
func (f *Framework) filterOne(ctx context.Context, state *CycleState, spec *workv1alpha2.ResourceBindingSpec,
	status *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster, sample bool) (*Status, string) {
	for _, p := range f.filters {
		var start time.Time
		if sample {
			start = time.Now()
		}
		st := p.Filter(ctx, state, spec, status, cluster)
		if sample {
			f.observePlugin(p.Name(), ExtensionFilter, st, start)
		}
		if !st.IsSuccess() {
			return st, p.Name()
		}
	}
	return nil, ""
}

// RunScorePlugins returns, for each cluster at the same index, the sum of
// the scores of all score plugins. A score outside MinClusterScore and
// MaxClusterScore, or a non-success status, is an error.
func (f *Framework) RunScorePlugins(ctx context.Context, state *CycleState,
	spec *workv1alpha2.ResourceBindingSpec, clusters []*clusterv1alpha1.Cluster) ([]int64, error) {
	scores := make([]int64, len(clusters))
	if len(f.scorers) == 0 {
		return scores, nil
	}
	start := time.Now()
	var result *Status
	defer func() { f.observePoint(ExtensionScore, result, start) }()
	for i, cluster := range clusters {
		if i%ctxCheckInterval == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		for _, p := range f.scorers {
			score, st := p.Score(ctx, state, spec, cluster)
			if !st.IsSuccess() {
				result = st
				return nil, fmt.Errorf("plugin %s on cluster %q: %w", p.Name(), cluster.Name, st.AsError())
			}
			if score < MinClusterScore || score > MaxClusterScore {
				return nil, fmt.Errorf("plugin %s gave cluster %q the score %d, outside [%d, %d]",
					p.Name(), cluster.Name, score, MinClusterScore, MaxClusterScore)
			}
			scores[i] += score
		}
	}
	return scores, nil
}

// attribute names the plugin on a status that does not name one yet. Plugins
// that share prebuilt statuses set the name themselves, so this copies only
// for statuses built without one.
func attribute(st *Status, plugin string) *Status {
	if st.Plugin() != "" {
		return st
	}
	return st.WithPlugin(plugin)
}
