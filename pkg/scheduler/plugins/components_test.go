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

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestComponentsFit(t *testing.T) {
	t.Parallel()
	p := mustNew(t, plugins.NewComponentsFit)
	small := builders.NewCluster("small").WithAllocatable(corev1.ResourceCPU, "4").WithAllocatable(corev1.ResourcePods, "110").Build()
	large := builders.NewCluster("large").WithAllocatable(corev1.ResourceCPU, "16").WithAllocatable(corev1.ResourcePods, "110").Build()
	withComponents := func(b *workv1alpha2.ResourceBinding) *workv1alpha2.ResourceBinding {
		cpu := func(q string) *workv1alpha2.ComponentReplicaRequirements {
			return &workv1alpha2.ComponentReplicaRequirements{ResourceRequest: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse(q)}}
		}
		b.Spec.Components = []workv1alpha2.Component{
			{Name: "jobmanager", Replicas: 1, ReplicaRequirements: cpu("2")},
			{Name: "taskmanager", Replicas: 2, ReplicaRequirements: cpu("3")},
		}
		return b
	}
	short := "cluster(s) cannot hold one set of the workload's 2 components (short of cpu)"
	cases := []struct {
		name    string
		binding *workv1alpha2.ResourceBinding
		cluster string
		want    string
	}{
		{"Without components every cluster passes.", builders.NewBinding("plain").Build(), "small", feasible},
		{"8 CPUs a set: the large cluster holds it.", withComponents(builders.NewBinding("flink").Build()), "large", feasible},
		{"8 CPUs a set: the small cluster does not.", withComponents(builders.NewBinding("flink").Build()), "small", short},
		{"A cluster the workload runs on already passes.", withComponents(builders.NewBinding("flink").ScheduledTo("small", 0).Build()), "small", feasible},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cluster := large
			if tc.cluster == "small" {
				cluster = small
			}
			if got := verdict(t, p, nil, tc.binding, cluster); got != tc.want {
				t.Errorf("verdict %q, want %q", got, tc.want)
			}
		})
	}
}
