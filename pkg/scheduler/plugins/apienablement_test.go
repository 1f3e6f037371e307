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
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
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
			name:    "A cluster already holding the binding is rejected when its complete API list lacks the kind.",
			binding: builders.NewBinding("web").ScheduledTo("m1", 2),
			cluster: builders.NewCluster("m1").WithAPI("v1", "ConfigMap").WithCondition(complete, metav1.ConditionTrue),
			want:    "cluster(s) did not have the API resource",
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
