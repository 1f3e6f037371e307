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

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// fakeFilter rejects the clusters listed in reject and logs its calls.
type fakeFilter struct {
	name   string
	reject map[string]*framework.Status
	calls  *[]string
}

func (f *fakeFilter) Name() string { return f.name }

func (f *fakeFilter) Filter(_ context.Context, _ *framework.CycleState, _ *workv1alpha2.ResourceBindingSpec,
	_ *workv1alpha2.ResourceBindingStatus, cluster *clusterv1alpha1.Cluster) *framework.Status {
	if f.calls != nil {
		*f.calls = append(*f.calls, f.name+"/"+cluster.Name)
	}
	return f.reject[cluster.Name]
}

// fakePreFilter is a filter with a pre-filter returning pre.
type fakePreFilter struct {
	fakeFilter
	pre *framework.Status
}

func (f *fakePreFilter) PreFilter(context.Context, *framework.CycleState, *workv1alpha2.ResourceBindingSpec,
	*workv1alpha2.ResourceBindingStatus) *framework.Status {
	return f.pre
}

// fakeScorer scores clusters from a table.
type fakeScorer struct {
	name   string
	scores map[string]int64
	status *framework.Status
}

func (f *fakeScorer) Name() string { return f.name }

func (f *fakeScorer) Score(_ context.Context, _ *framework.CycleState, _ *workv1alpha2.ResourceBindingSpec,
	cluster *clusterv1alpha1.Cluster) (int64, *framework.Status) {
	return f.scores[cluster.Name], f.status
}

type inert struct{ name string }

func (p *inert) Name() string { return p.name }

func registryOf(plugins ...framework.Plugin) framework.Registry {
	r := framework.Registry{}
	for _, p := range plugins {
		r[p.Name()] = func() (framework.Plugin, error) { return p, nil }
	}
	return r
}

func clusters(names ...string) []*clusterv1alpha1.Cluster {
	out := make([]*clusterv1alpha1.Cluster, len(names))
	for i, n := range names {
		out[i] = builders.NewCluster(n).Build()
	}
	return out
}

func names(cs []*clusterv1alpha1.Cluster) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}
