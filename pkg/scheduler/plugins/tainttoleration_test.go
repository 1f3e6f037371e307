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

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestTaintToleration(t *testing.T) {
	t.Parallel()
	const (
		noSchedule = corev1.TaintEffectNoSchedule
		noExecute  = corev1.TaintEffectNoExecute
	)
	notReady := clusterv1alpha1.TaintClusterNotReady
	tests := []struct {
		name    string
		binding *builders.BindingBuilder
		cluster *builders.ClusterBuilder
		want    string
	}{
		{
			name:    "A cluster without taints is feasible.",
			binding: builders.NewBinding("web"),
			cluster: builders.NewCluster("m1"),
			want:    feasible,
		},
		{
			name:    "An untolerated NoSchedule taint without a value is reported as {key: }.",
			binding: builders.NewBinding("web"),
			cluster: builders.NewCluster("m1").WithTaint(notReady, "", noSchedule),
			want:    "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }",
		},
		{
			name:    "An untolerated taint with a value is reported as {key: value}.",
			binding: builders.NewBinding("web"),
			cluster: builders.NewCluster("m1").WithTaint("dedicated", "gpu", noSchedule),
			want:    "cluster(s) had untolerated taint {dedicated: gpu}",
		},
		{
			name:    "An untolerated NoExecute taint rejects a new cluster.",
			binding: builders.NewBinding("web"),
			cluster: builders.NewCluster("m1").WithTaint(notReady, "", noExecute),
			want:    "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }",
		},
		{
			name:    "A PreferNoSchedule taint is ignored.",
			binding: builders.NewBinding("web"),
			cluster: builders.NewCluster("m1").WithTaint("soft", "", corev1.TaintEffectPreferNoSchedule),
			want:    feasible,
		},
		{
			name:    "Only the first untolerated taint is reported.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: "a", Operator: corev1.TolerationOpExists}),
			cluster: builders.NewCluster("m1").WithTaint("a", "", noSchedule).WithTaint("b", "1", noSchedule).WithTaint("c", "", noExecute),
			want:    "cluster(s) had untolerated taint {b: 1}",
		},
		{
			name:    "An Equal toleration with the same key, value and effect tolerates the taint.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "gpu", Effect: noSchedule}),
			cluster: builders.NewCluster("m1").WithTaint("dedicated", "gpu", noSchedule),
			want:    feasible,
		},
		{
			name:    "A toleration without operator means Equal.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: "dedicated", Value: "gpu"}),
			cluster: builders.NewCluster("m1").WithTaint("dedicated", "gpu", noSchedule),
			want:    feasible,
		},
		{
			name:    "An Equal toleration with another value does not tolerate the taint.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpEqual, Value: "cpu"}),
			cluster: builders.NewCluster("m1").WithTaint("dedicated", "gpu", noSchedule),
			want:    "cluster(s) had untolerated taint {dedicated: gpu}",
		},
		{
			name:    "An Exists toleration tolerates the key whatever the value.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpExists}),
			cluster: builders.NewCluster("m1").WithTaint("dedicated", "anything", noExecute),
			want:    feasible,
		},
		{
			name:    "An Exists toleration with an empty key tolerates every taint.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Operator: corev1.TolerationOpExists}),
			cluster: builders.NewCluster("m1").WithTaint("a", "1", noSchedule).WithTaint(notReady, "", noExecute),
			want:    feasible,
		},
		{
			name:    "A toleration for NoSchedule does not tolerate the same key with NoExecute.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: notReady, Operator: corev1.TolerationOpExists, Effect: noSchedule}),
			cluster: builders.NewCluster("m1").WithTaint(notReady, "", noExecute),
			want:    "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }",
		},
		{
			name:    "A toleration with an empty effect matches every effect.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: notReady, Operator: corev1.TolerationOpExists}),
			cluster: builders.NewCluster("m1").WithTaint(notReady, "", noExecute).WithTaint(notReady, "", noSchedule),
			want:    feasible,
		},
		{
			name:    "Comparison operators never tolerate, as in Karmada.",
			binding: builders.NewBinding("web").WithToleration(corev1.Toleration{Key: "size", Operator: "Gt", Value: "1"}),
			cluster: builders.NewCluster("m1").WithTaint("size", "5", noSchedule),
			want:    "cluster(s) had untolerated taint {size: 5}",
		},
		{
			name:    "A binding without placement tolerates nothing.",
			binding: builders.NewBinding("web").WithoutPlacement(),
			cluster: builders.NewCluster("m1").WithTaint(notReady, "", noSchedule),
			want:    "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }",
		},
		{
			name:    "A cluster already chosen stays on despite an untolerated NoSchedule taint.",
			binding: builders.NewBinding("web").ScheduledTo("m1", 3),
			cluster: builders.NewCluster("m1").WithTaint(clusterv1alpha1.TaintClusterUnscheduler, "", noSchedule),
			want:    feasible,
		},
		{
			name:    "A cluster already chosen stays on despite an untolerated NoExecute taint; the taint manager evicts it gracefully.",
			binding: builders.NewBinding("web").ScheduledTo("m1", 3),
			cluster: builders.NewCluster("m1").WithTaint(notReady, "", noExecute),
			want:    feasible,
		},
		{
			name:    "Being chosen elsewhere does not help a tainted cluster.",
			binding: builders.NewBinding("web").ScheduledTo("m2", 3),
			cluster: builders.NewCluster("m1").WithTaint(notReady, "", noSchedule),
			want:    "cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }",
		},
	}
	p := mustNew(t, plugins.NewTaintToleration)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := verdict(t, p, nil, tt.binding.Build(), tt.cluster.Build()); got != tt.want {
				t.Errorf("verdict = %q, want %q", got, tt.want)
			}
		})
	}
}
