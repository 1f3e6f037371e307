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

package framework_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestNewRefusesBadPluginLists(t *testing.T) {
	t.Parallel()
	good := registryOf(&fakeFilter{name: "F"}, &inert{name: "Inert"})
	good["Broken"] = func() (framework.Plugin, error) { return nil, errors.New("no config") }
	good["Liar"] = func() (framework.Plugin, error) { return &fakeFilter{name: "Other"}, nil }
	tests := []struct {
		name    string
		plugins []string
		wantErr string
	}{
		{name: "An unregistered plugin is refused.", plugins: []string{"Missing"}, wantErr: `plugin "Missing" is not registered`},
		{name: "A plugin listed twice is refused.", plugins: []string{"F", "F"}, wantErr: `plugin "F" is listed twice`},
		{name: "A failing factory is reported.", plugins: []string{"Broken"}, wantErr: `build plugin "Broken": no config`},
		{name: "A plugin whose name differs from its key is refused.", plugins: []string{"Liar"}, wantErr: `plugin registered as "Liar" calls itself "Other"`},
		{name: "A plugin with no extension point is refused.", plugins: []string{"Inert"}, wantErr: `plugin "Inert" implements no extension point`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := framework.New(good, tt.plugins)
			if err == nil || err.Error() != tt.wantErr {
				t.Errorf("New() error = %v, want %q", err, tt.wantErr)
			}
		})
	}
}

func TestRunFilterPlugins(t *testing.T) {
	t.Parallel()
	unschedulable := func(reason string) *framework.Status { return framework.NewStatus(framework.Unschedulable, reason) }
	tests := []struct {
		name         string
		plugins      []framework.Plugin
		wantFeasible []string
		wantRejected map[string]string // cluster -> plugin: reason
		wantCalls    []string
		wantErr      string
	}{
		{
			name: "Filters run in order and a cluster stops at the first rejection.",
			plugins: []framework.Plugin{
				&fakeFilter{name: "A", reject: map[string]*framework.Status{"m2": unschedulable("a says no")}},
				&fakeFilter{name: "B", reject: map[string]*framework.Status{"m2": unschedulable("b says no"), "m3": unschedulable("b says no")}},
			},
			wantFeasible: []string{"m1"},
			wantRejected: map[string]string{"m2": "A: a says no", "m3": "B: b says no"},
			wantCalls:    []string{"A/m1", "B/m1", "A/m2", "A/m3", "B/m3"},
		},
		{
			name:         "A pre-filter that finds the binding unschedulable rejects every cluster with its status.",
			plugins:      []framework.Plugin{&fakePreFilter{fakeFilter: fakeFilter{name: "P"}, pre: unschedulable("nothing fits")}},
			wantRejected: map[string]string{"m1": "P: nothing fits", "m2": "P: nothing fits", "m3": "P: nothing fits"},
		},
		{
			name:    "A pre-filter error aborts the pass.",
			plugins: []framework.Plugin{&fakePreFilter{fakeFilter: fakeFilter{name: "P"}, pre: framework.AsStatus(errors.New("bad selector"))}},
			wantErr: "plugin P: bad selector",
		},
		{
			name: "A filter error aborts the pass and names the plugin and cluster.",
			plugins: []framework.Plugin{
				&fakeFilter{name: "A", reject: map[string]*framework.Status{"m2": framework.AsStatus(errors.New("broken"))}},
			},
			wantErr: `plugin A on cluster "m2": broken`,
		},
		{
			name:         "With no filters every cluster is feasible.",
			plugins:      []framework.Plugin{&fakeScorer{name: "S"}},
			wantFeasible: []string{"m1", "m2", "m3"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var calls []string
			var order []string
			for _, p := range tt.plugins {
				if f, ok := p.(*fakeFilter); ok {
					f.calls = &calls
				}
				order = append(order, p.Name())
			}
			fw, err := framework.New(registryOf(tt.plugins...), order)
			if err != nil {
				t.Fatalf("New() error = %v", err)
			}
			binding := builders.NewBinding("b").Build()
			feasible, diagnosis, err := fw.RunFilterPlugins(context.Background(), framework.NewCycleState(),
				&binding.Spec, &binding.Status, clusters("m1", "m2", "m3"))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("RunFilterPlugins() error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatalf("RunFilterPlugins() error = %v", err)
			}
			if got := names(feasible); !slices.Equal(got, tt.wantFeasible) {
				t.Errorf("feasible = %q, want %q", got, tt.wantFeasible)
			}
			if len(diagnosis.Rejected) != len(tt.wantRejected) {
				t.Errorf("rejected %d clusters, want %d", len(diagnosis.Rejected), len(tt.wantRejected))
			}
			for cluster, want := range tt.wantRejected {
				st := diagnosis.StatusOf(cluster)
				if got := st.Plugin() + ": " + strings.Join(st.Reasons(), "; "); got != want {
					t.Errorf("cluster %s rejected with %q, want %q", cluster, got, want)
				}
			}
			if tt.wantCalls != nil && !slices.Equal(calls, tt.wantCalls) {
				t.Errorf("calls = %q, want %q", calls, tt.wantCalls)
			}
		})
	}
}

func TestRunFilterPluginsStopsOnACanceledContext(t *testing.T) {
	t.Parallel()
	fw, err := framework.New(registryOf(&fakeFilter{name: "A"}), []string{"A"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	binding := builders.NewBinding("b").Build()
	_, _, err = fw.RunFilterPlugins(ctx, framework.NewCycleState(), &binding.Spec, &binding.Status, clusters("m1"))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("RunFilterPlugins() error = %v, want context.Canceled", err)
	}
}

func TestRunScorePlugins(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		scorers []framework.Plugin
		want    []int64
		wantErr string
	}{
		{
			name: "Scores of all score plugins are summed per cluster.",
			scorers: []framework.Plugin{
				&fakeScorer{name: "S1", scores: map[string]int64{"m1": 100, "m2": 10}},
				&fakeScorer{name: "S2", scores: map[string]int64{"m1": 50, "m3": 100}},
			},
			want: []int64{150, 10, 100},
		},
		{
			name:    "A score above the maximum is an error.",
			scorers: []framework.Plugin{&fakeScorer{name: "S1", scores: map[string]int64{"m2": 101}}},
			wantErr: `plugin S1 gave cluster "m2" the score 101, outside [0, 100]`,
		},
		{
			name:    "A negative score is an error.",
			scorers: []framework.Plugin{&fakeScorer{name: "S1", scores: map[string]int64{"m1": -1}}},
			wantErr: `plugin S1 gave cluster "m1" the score -1, outside [0, 100]`,
		},
		{
			name:    "A failing score plugin is an error.",
			scorers: []framework.Plugin{&fakeScorer{name: "S1", status: framework.AsStatus(errors.New("no data"))}},
			wantErr: `plugin S1 on cluster "m1": no data`,
		},
		{
			name:    "Without score plugins every cluster scores zero.",
			scorers: []framework.Plugin{&fakeFilter{name: "F"}},
			want:    []int64{0, 0, 0},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var order []string
			for _, p := range tt.scorers {
				order = append(order, p.Name())
			}
			fw, err := framework.New(registryOf(tt.scorers...), order)
			if err != nil {
				t.Fatal(err)
			}
			binding := builders.NewBinding("b").Build()
			got, err := fw.RunScorePlugins(context.Background(), framework.NewCycleState(), &binding.Spec, clusters("m1", "m2", "m3"))
			if tt.wantErr != "" {
				if err == nil || err.Error() != tt.wantErr {
					t.Fatalf("RunScorePlugins() error = %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || !slices.Equal(got, tt.want) {
				t.Errorf("RunScorePlugins() = %v, %v; want %v", got, err, tt.want)
			}
		})
	}
}

func TestPluginNamesFollowTheGivenOrder(t *testing.T) {
	t.Parallel()
	r := registryOf(&fakeFilter{name: "B"}, &fakeFilter{name: "A"}, &fakeScorer{name: "S"})
	fw, err := framework.New(r, []string{"B", "S", "A"})
	if err != nil {
		t.Fatal(err)
	}
	if got := fw.FilterPluginNames(); !slices.Equal(got, []string{"B", "A"}) {
		t.Errorf("FilterPluginNames() = %q", got)
	}
	if got := fw.ScorePluginNames(); !slices.Equal(got, []string{"S"}) {
		t.Errorf("ScorePluginNames() = %q", got)
	}
}
