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
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestRegistryNamesEveryPluginByItsName(t *testing.T) {
	t.Parallel()
	registry := plugins.NewRegistry(nil)
	if len(registry) != len(plugins.DefaultPlugins) {
		t.Errorf("registry has %d plugins, DefaultPlugins lists %d", len(registry), len(plugins.DefaultPlugins))
	}
	for name, factory := range registry {
		if got := mustNew(t, factory).Name(); got != name {
			t.Errorf("plugin registered as %q is named %q", name, got)
		}
	}
}

func TestDefaultFrameworkOrder(t *testing.T) {
	t.Parallel()
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		t.Fatal(err)
	}
	wantFilters := []string{"APIEnablement", "TaintToleration", "ClusterAffinity", "ClusterEviction", "WorkloadAffinity", "ComponentsFit"}
	if got := fw.FilterPluginNames(); !slices.Equal(got, wantFilters) {
		t.Errorf("filters = %q, want %q", got, wantFilters)
	}
	if got := fw.ScorePluginNames(); !slices.Equal(got, []string{"ClusterLocality"}) {
		t.Errorf("scorers = %q, want [ClusterLocality]", got)
	}
}

func TestDefaultFrameworkExplainsWhyNothingFits(t *testing.T) {
	t.Parallel()
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		t.Fatal(err)
	}
	binding := builders.NewBinding("web").WithLabelSelector(map[string]string{"env": "prod"}).Build()
	clusters := []*clusterv1alpha1.Cluster{
		builders.NewCluster("m1").WithAPI("apps/v1", "Deployment").WithLabel("env", "prod").
			WithTaint(clusterv1alpha1.TaintClusterNotReady, "", corev1.TaintEffectNoSchedule).Build(),
		builders.NewCluster("m2").WithAPI("apps/v1", "Deployment").WithLabel("env", "dev").Build(),
		builders.NewCluster("m3").WithAPI("apps/v1", "Deployment").Build(),
	}
	feasible, diagnosis, err := fw.RunFilterPlugins(context.Background(), framework.NewCycleState(), &binding.Spec, &binding.Status, clusters)
	if err != nil || len(feasible) != 0 {
		t.Fatalf("RunFilterPlugins() = %d feasible, %v; want none and no error", len(feasible), err)
	}
	fitErr := &framework.FitError{NumAllClusters: len(clusters), Diagnosis: diagnosis}
	want := "0/3 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }, " +
		"2 cluster(s) did not match the placement cluster affinity."
	if got := fitErr.Error(); got != want {
		t.Errorf("FitError =\n%q\nwant\n%q", got, want)
	}
	if got := diagnosis.StatusOf("m1").Plugin(); got != plugins.TaintTolerationName {
		t.Errorf("m1 rejected by %q, want %q", got, plugins.TaintTolerationName)
	}
}

func TestDefaultFrameworkKeepsFeasibleClustersAndScoresLocality(t *testing.T) {
	t.Parallel()
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		t.Fatal(err)
	}
	binding := builders.NewBinding("web").ScheduledTo("m3", 2).EvictingFrom("m2").Build()
	var clusters []*clusterv1alpha1.Cluster
	for _, name := range []string{"m1", "m2", "m3", "m4"} {
		b := builders.NewCluster(name).WithAPI("apps/v1", "Deployment")
		if name == "m4" {
			b = builders.NewCluster(name).WithAPI("batch/v1", "Job")
		}
		clusters = append(clusters, b.Build())
	}
	state := framework.NewCycleState()
	feasible, diagnosis, err := fw.RunFilterPlugins(context.Background(), state, &binding.Spec, &binding.Status, clusters)
	if err != nil {
		t.Fatal(err)
	}
	if got := names(feasible); !slices.Equal(got, []string{"m1", "m3"}) {
		t.Errorf("feasible = %q, want [m1 m3]", got)
	}
	if got := diagnosis.StatusOf("m2").Message(); got != plugins.ReasonEvicting {
		t.Errorf("m2: %q, want %q", got, plugins.ReasonEvicting)
	}
	if got := diagnosis.StatusOf("m4").Message(); got != plugins.ReasonAPIMissing {
		t.Errorf("m4: %q, want %q", got, plugins.ReasonAPIMissing)
	}
	scores, err := fw.RunScorePlugins(context.Background(), state, &binding.Spec, feasible)
	if err != nil || !slices.Equal(scores, []int64{0, 100}) {
		t.Errorf("scores = %v, %v; want [0 100]", scores, err)
	}
}

func TestClusterAffinityFilterWorksWithoutPreFilter(t *testing.T) {
	t.Parallel()
	p := mustNew(t, plugins.NewClusterAffinity).(framework.FilterPlugin)
	binding := builders.NewBinding("w").WithClusterNames("m1").Build()
	state := framework.NewCycleState()
	for cluster, wantOK := range map[string]bool{"m1": true, "m2": false} {
		st := p.Filter(context.Background(), state, &binding.Spec, &binding.Status, builders.NewCluster(cluster).Build())
		if st.IsSuccess() != wantOK {
			t.Errorf("Filter(%s) = %v, want success %v", cluster, st.Message(), wantOK)
		}
	}
}

func names(cs []*clusterv1alpha1.Cluster) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}
