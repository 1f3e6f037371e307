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
	"testing"

	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/framework"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/scheduler/spread"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// fleet builds n clusters that look like a real fleet: a dozen API groups,
// two thirds labelled env=prod, one in ten tainted not-ready, four regions
// with two zones each.
func fleet(n int) []*clusterv1alpha1.Cluster {
	out := make([]*clusterv1alpha1.Cluster, n)
	for i := range out {
		b := builders.NewCluster(fmt.Sprintf("member-%05d", i)).
			WithAPI("v1", "ConfigMap", "Secret", "Service", "Pod", "Namespace").
			WithAPI("batch/v1", "Job", "CronJob").
			WithAPI("networking.k8s.io/v1", "Ingress", "NetworkPolicy").
			WithAPI("policy/v1", "PodDisruptionBudget").
			WithAPI("autoscaling/v2", "HorizontalPodAutoscaler").
			WithAPI("rbac.authorization.k8s.io/v1", "Role", "RoleBinding").
			WithAPI("apps/v1", "DaemonSet", "ReplicaSet", "StatefulSet", "Deployment").
			WithLabel("team", fmt.Sprintf("t%d", i%7)).
			WithProvider([]string{"aws", "gcp"}[i%2]).
			WithRegion(fmt.Sprintf("region-%d", i%4)).
			WithZones(fmt.Sprintf("region-%d-%c", i%4, 'a'+i%2))
		if i%3 != 0 {
			b.WithLabel("env", "prod")
		}
		if i%10 == 0 {
			b.WithTaint(clusterv1alpha1.TaintClusterNotReady, "", corev1.TaintEffectNoSchedule)
		}
		out[i] = b.Build()
	}
	return out
}

func benchBinding() *builders.BindingBuilder {
	return builders.NewBinding("web").WithReplicas(10).
		WithLabelSelector(map[string]string{"env": "prod"}).
		WithExclude("member-00004").
		ScheduledTo("member-00001", 5).ScheduledTo("member-00002", 5).
		EvictingFrom("member-00005")
}

// BenchmarkFilter runs every filter plugin over the fleet for one binding
// with a label selector placement.
func BenchmarkFilter(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("clusters=%d", n), func(b *testing.B) {
			fw, err := plugins.NewDefaultFramework(nil)
			if err != nil {
				b.Fatal(err)
			}
			clusters := fleet(n)
			binding := benchBinding().Build()
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				feasible, _, err := fw.RunFilterPlugins(ctx, framework.NewCycleState(), &binding.Spec, &binding.Status, clusters)
				if err != nil || len(feasible) == 0 {
					b.Fatalf("%d feasible, %v", len(feasible), err)
				}
			}
		})
	}
}

// BenchmarkFilterScoreSelect is the scheduler's part before replica
// division: filter, score, then spread selection over regions and clusters.
func BenchmarkFilterScoreSelect(b *testing.B) {
	for _, n := range []int{1000, 5000} {
		b.Run(fmt.Sprintf("clusters=%d", n), func(b *testing.B) {
			fw, err := plugins.NewDefaultFramework(nil)
			if err != nil {
				b.Fatal(err)
			}
			clusters := fleet(n)
			binding := benchBinding().Divided(policyv1alpha1.ReplicaDivisionPreferenceAggregated).WithSpread(
				policyv1alpha1.SpreadConstraint{SpreadByField: policyv1alpha1.SpreadByFieldRegion, MinGroups: 2, MaxGroups: 3},
				policyv1alpha1.SpreadConstraint{SpreadByField: policyv1alpha1.SpreadByFieldCluster, MinGroups: 3, MaxGroups: 5},
			).Build()
			constraints, divided := spread.ForPlacement(binding.Spec.Placement)
			ctx := context.Background()
			b.ReportAllocs()
			for b.Loop() {
				state := framework.NewCycleState()
				feasible, _, err := fw.RunFilterPlugins(ctx, state, &binding.Spec, &binding.Status, clusters)
				if err != nil {
					b.Fatal(err)
				}
				scores, err := fw.RunScorePlugins(ctx, state, &binding.Spec, feasible)
				if err != nil {
					b.Fatal(err)
				}
				candidates := make([]spread.Candidate, len(feasible))
				for i, c := range feasible {
					candidates[i] = spread.Candidate{Cluster: c, Score: scores[i], Available: int64(i % 5)}
				}
				if _, err := spread.Select(candidates, constraints, binding.Spec.Replicas, divided); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
