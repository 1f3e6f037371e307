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

package plugins_test

import (
	"context"
	"testing"

	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestClusterEviction(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		binding *builders.BindingBuilder
		cluster string
		want    string
	}{
		{name: "A binding without eviction tasks may use any cluster.", binding: builders.NewBinding("web"), cluster: "m1", want: feasible},
		{
			name:    "A cluster the binding is being evicted from is rejected.",
			binding: builders.NewBinding("web").EvictingFrom("m2").EvictingFrom("m1"),
			cluster: "m1",
			want:    "cluster(s) is in the process of eviction",
		},
		{
			name:    "A cluster the binding is being evicted from is rejected even if still in the result.",
			binding: builders.NewBinding("web").ScheduledTo("m1", 1).EvictingFrom("m1"),
			cluster: "m1",
			want:    "cluster(s) is in the process of eviction",
		},
		{name: "Other clusters stay feasible.", binding: builders.NewBinding("web").EvictingFrom("m2"), cluster: "m1", want: feasible},
	}
	p := mustNew(t, plugins.NewClusterEviction)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := verdict(t, p, nil, tt.binding.Build(), builders.NewCluster(tt.cluster).Build()); got != tt.want {
				t.Errorf("verdict = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestClusterLocality(t *testing.T) {
	t.Parallel()
	binding := builders.NewBinding("web").ScheduledTo("m1", 1).ScheduledTo("m3", 0).Build()
	p := mustNew(t, plugins.NewClusterLocality).(framework.ScorePlugin)
	state := framework.NewCycleState()
	for cluster, want := range map[string]int64{"m1": 100, "m2": 0, "m3": 100} {
		got, st := p.Score(context.Background(), state, &binding.Spec, builders.NewCluster(cluster).Build())
		if got != want || !st.IsSuccess() {
			t.Errorf("Score(%s) = %d, %v; want %d for a cluster %s", cluster, got, st, want,
				map[bool]string{true: "already in the result", false: "not in the result"}[want == 100])
		}
	}
}
