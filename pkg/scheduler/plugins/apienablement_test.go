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
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestAPIEnablement(t *testing.T) {
	t.Parallel()
	complete := clusterv1alpha1.ClusterConditionCompleteAPIEnablements
	deployment := builders.NewBinding("web")
	tests := []struct {
		name    string
		binding *builders.BindingBuilder
		cluster *builders.ClusterBuilder
		want    string
	}{
		{
			name:    "A cluster serving the kind under the group/version is feasible.",
			binding: deployment,
			cluster: builders.NewCluster("m1").WithAPI("v1", "ConfigMap").WithAPI("apps/v1", "StatefulSet", "Deployment"),
			want:    feasible,
		},
		{
			name:    "A cluster without the group/version is rejected.",
			binding: deployment,
			cluster: builders.NewCluster("m1").WithAPI("v1", "ConfigMap"),
			want:    "cluster(s) did not have the API resource",
		},
		{
			name:    "A cluster serving the group/version but not the kind is rejected.",
			binding: deployment,
			cluster: builders.NewCluster("m1").WithAPI("apps/v1", "StatefulSet"),
			want:    "cluster(s) did not have the API resource",
		},
		{
			name:    "A cluster serving the kind only under another version is rejected.",
			binding: builders.NewBinding("hpa").ForResource("autoscaling/v2", "HorizontalPodAutoscaler"),
			cluster: builders.NewCluster("m1").WithAPI("autoscaling/v1", "HorizontalPodAutoscaler"),
			want:    "cluster(s) did not have the API resource",
		},
		{
			name:    "A cluster already holding the binding stays when its API list is marked incomplete.",
			binding: builders.NewBinding("web").ScheduledTo("m1", 2),
			cluster: builders.NewCluster("m1").WithCondition(complete, metav1.ConditionFalse),
			want:    feasible,
		},
		{
			name:    "A cluster already holding the binding stays when completeness is unknown.",
			binding: builders.NewBinding("web").ScheduledTo("m1", 2),
			cluster: builders.NewCluster("m1"),
			want:    feasible,
		},
		{
			name:    "A cluster already holding the binding is kept even when its complete API list lacks the kind (a CRD removed there).",
			binding: builders.NewBinding("web").ScheduledTo("m1", 2),
			cluster: builders.NewCluster("m1").WithAPI("v1", "ConfigMap").WithCondition(complete, metav1.ConditionTrue),
			want:    feasible,
		},
		{
			name:    "An Addon goes to a cluster that does not serve Addons: its chart's objects are what is applied.",
			binding: builders.NewBinding("log-collector").ForResource("addons.mco-org.github.io/v1alpha1", "Addon"),
			cluster: builders.NewCluster("m1").WithAPI("v1", "ConfigMap").WithCondition(complete, metav1.ConditionTrue),
			want:    feasible,
		},
		{
			name:    "An incomplete API list does not help a cluster that does not hold the binding yet.",
			binding: builders.NewBinding("web").ScheduledTo("m2", 2),
			cluster: builders.NewCluster("m1").WithCondition(complete, metav1.ConditionFalse),
			want:    "cluster(s) did not have the API resource",
		},
	}
	p := mustNew(t, plugins.NewAPIEnablement)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := verdict(t, p, nil, tt.binding.Build(), tt.cluster.Build()); got != tt.want {
				t.Errorf("verdict = %q, want %q", got, tt.want)
			}
		})
	}
}

// The answer for a cluster object is remembered across bindings; an updated
// cluster arrives as a new object and is looked at again.
func TestAPIEnablementRemembersClusterObjects(t *testing.T) {
	t.Parallel()
	p := mustNew(t, plugins.NewAPIEnablement)
	web := builders.NewBinding("web").Build()
	without := builders.NewCluster("m1").WithAPI("v1", "ConfigMap").Build()
	with := builders.NewCluster("m1").WithAPI("apps/v1", "Deployment").Build()
	for i, step := range []struct {
		cluster *clusterv1alpha1.Cluster
		want    string
	}{
		{without, "cluster(s) did not have the API resource"},
		{without, "cluster(s) did not have the API resource"},
		{with, feasible},
		{with, feasible},
		{without, "cluster(s) did not have the API resource"},
	} {
		if got := verdict(t, p, nil, web, step.cluster); got != step.want {
			t.Errorf("step %d: verdict = %q, want %q", i, got, step.want)
		}
	}
}

// Bindings of different kinds, scheduled concurrently, each get their own
// answers (run with -race).
func TestAPIEnablementConcurrentBindings(t *testing.T) {
	t.Parallel()
	p := mustNew(t, plugins.NewAPIEnablement)
	clusters := []*clusterv1alpha1.Cluster{
		builders.NewCluster("m1").WithAPI("apps/v1", "Deployment").Build(),
		builders.NewCluster("m2").WithAPI("batch/v1", "Job").Build(),
	}
	bindings := map[string]string{"apps/v1 Deployment": "m1", "batch/v1 Job": "m2"}
	for kind, want := range bindings {
		for range 4 {
			t.Run(kind, func(t *testing.T) {
				t.Parallel()
				gv, k, _ := strings.Cut(kind, " ")
				rb := builders.NewBinding("x").ForResource(gv, k).Build()
				for range 50 {
					for _, c := range clusters {
						if got := verdict(t, p, nil, rb, c) == feasible; got != (c.Name == want) {
							t.Fatalf("%s on %s: feasible = %v", kind, c.Name, got)
						}
					}
				}
			})
		}
	}
}

// BenchmarkAPIEnablementLongLists filters fleets whose clusters list 43
// group/versions, as real ones do, for a kind near the start of the list
// and for one at its end (where a scan would cost the most).
func BenchmarkAPIEnablementLongLists(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		clusters := make([]*clusterv1alpha1.Cluster, n)
		for i := range clusters {
			c := builders.NewCluster(fmt.Sprintf("member-%05d", i)).
				WithAPI("v1", "Pod", "Service", "ConfigMap", "Secret").WithAPI("apps/v1", "Deployment", "StatefulSet")
			for g := range 41 {
				c.WithAPI(fmt.Sprintf("g%d.example.io/v1", g), "KindA", "KindB", "KindC")
			}
			clusters[i] = c.Build()
		}
		for _, kind := range []string{"apps/v1 Deployment", "g40.example.io/v1 KindC"} {
			b.Run(fmt.Sprintf("%s/%d", kind, n), func(b *testing.B) {
				fw, err := framework.New(plugins.NewRegistry(nil), []string{plugins.APIEnablementName})
				if err != nil {
					b.Fatal(err)
				}
				gv, k, _ := strings.Cut(kind, " ")
				rb := builders.NewBinding("x").ForResource(gv, k).Build()
				b.ReportAllocs()
				for b.Loop() {
					feasible, _, err := fw.RunFilterPlugins(context.Background(), framework.NewCycleState(), &rb.Spec, &rb.Status, clusters)
					if err != nil || len(feasible) != n {
						b.Fatalf("%d feasible, %v", len(feasible), err)
					}
				}
			})
		}
	}
}
