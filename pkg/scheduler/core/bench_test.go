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

package core_test

import (
	"context"
	"fmt"
	"math/rand"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// Labels the benchmark fleet carries next to spec.provider/region/zones.
const (
	labelRegion   = "region"
	labelZone     = "zone"
	labelProvider = "provider"
)

// benchFleet builds n Ready clusters named member-%05d, spread over 10
// regions, 30 zones and 3 providers, serving apps/v1 Deployments, each with
// 64 cpu, 256Gi and 110 pods allocatable of which a pseudo-random 0-90% is
// allocated (fixed seed, so every run sees the same fleet).
func benchFleet(n int) []*clusterv1alpha1.Cluster {
	rng := rand.New(rand.NewSource(1))
	used := func(total int64) int64 { return total * int64(rng.Intn(91)) / 100 }
	out := make([]*clusterv1alpha1.Cluster, n)
	for i := range out {
		region, zone, provider := fmt.Sprintf("region-%d", i%10), fmt.Sprintf("zone-%d", i%30), fmt.Sprintf("provider-%d", i%3)
		out[i] = builders.NewCluster(fmt.Sprintf("member-%05d", i)).
			WithRegion(region).WithZones(zone).WithProvider(provider).
			WithLabel(labelRegion, region).WithLabel(labelZone, zone).WithLabel(labelProvider, provider).
			WithAPI("v1", "ConfigMap", "Secret", "Service").
			WithAPI("apps/v1", "DaemonSet", "StatefulSet", "Deployment").
			WithCondition(clusterv1alpha1.ClusterConditionReady, metav1.ConditionTrue).
			WithAllocatable(corev1.ResourceCPU, "64").WithAllocatable(corev1.ResourceMemory, "256Gi").
			WithAllocatable(corev1.ResourcePods, "110").
			WithAllocated(corev1.ResourceCPU, fmt.Sprintf("%dm", used(64000))).
			WithAllocated(corev1.ResourceMemory, fmt.Sprintf("%dMi", used(256*1024))).
			WithAllocated(corev1.ResourcePods, fmt.Sprint(used(110))).
			Build()
	}
	return out
}

// benchBinding is a Deployment of 100 replicas of 100m cpu and 128Mi.
func benchBinding() *builders.BindingBuilder {
	return builders.NewBinding("web").WithUID("5b4e1a4c-0d5f-4d4e-9a37-3f1c2b7d9e10").WithReplicas(100).
		WithRequest(corev1.ResourceCPU, "100m").WithRequest(corev1.ResourceMemory, "128Mi")
}

// benchModes are the placements measured, by sub-benchmark name.
var benchModes = []struct {
	name    string
	binding func(n int) *workv1alpha2.ResourceBinding
}{
	{"duplicated", func(int) *workv1alpha2.ResourceBinding { return benchBinding().Duplicated().Build() }},
	{"static-by-name", func(n int) *workv1alpha2.ResourceBinding {
		b := benchBinding()
		for i := range n {
			b.WithStaticWeight(int64(i%5+1), byNames(fmt.Sprintf("member-%05d", i)))
		}
		return b.Build()
	}},
	{"static-by-label", func(int) *workv1alpha2.ResourceBinding {
		b := benchBinding()
		for r := range 10 {
			b.WithStaticWeight(int64(r%5+1), byLabel(labelRegion, fmt.Sprintf("region-%d", r)))
		}
		return b.Build()
	}},
	{"dynamic", func(int) *workv1alpha2.ResourceBinding { return benchBinding().DynamicWeight().Build() }},
	{"aggregated", func(int) *workv1alpha2.ResourceBinding {
		return benchBinding().Divided(policyv1alpha1.ReplicaDivisionPreferenceAggregated).Build()
	}},
	{"dynamic-spread", func(int) *workv1alpha2.ResourceBinding {
		return benchBinding().DynamicWeight().WithSpread(
			policyv1alpha1.SpreadConstraint{SpreadByField: policyv1alpha1.SpreadByFieldCluster, MinGroups: 1, MaxGroups: 10},
			policyv1alpha1.SpreadConstraint{SpreadByField: policyv1alpha1.SpreadByFieldRegion, MinGroups: 2, MaxGroups: 3},
		).Build()
	}},
}

// BenchmarkSchedule measures one whole decision (filter, score, select,
// divide) for one binding over fleets of 100, 1000 and 5000 clusters.
func BenchmarkSchedule(b *testing.B) {
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		b.Fatal(err)
	}
	s := core.New(fw, core.Steps{})
	sizes := []int{100, 1000, 5000}
	fleets := map[int][]*clusterv1alpha1.Cluster{}
	for _, n := range sizes {
		fleets[n] = benchFleet(n)
	}
	ctx := context.Background()
	for _, mode := range benchModes {
		b.Run(mode.name, func(b *testing.B) {
			for _, n := range sizes {
				b.Run(fmt.Sprint(n), func(b *testing.B) {
					rb := mode.binding(n)
					in := core.Input{Spec: &rb.Spec, Status: &rb.Status, UID: string(rb.UID), Clusters: fleets[n]}
					// Measure the steady state, in which the scheduler has
					// seen the fleet before.
					if _, err := s.Schedule(ctx, in); err != nil {
						b.Fatal(err)
					}
					b.ReportAllocs()
					for b.Loop() {
						res, err := s.Schedule(ctx, in)
						if err != nil || len(res.Clusters) == 0 {
							b.Fatalf("%d clusters, %v", len(res.Clusters), err)
						}
					}
				})
			}
		})
	}
}
