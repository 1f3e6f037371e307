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
	"fmt"
	"testing"

	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// regions builds perRegion members named region-1, region-2, ... in each
// region, each with room for pods more replicas.
func regions(perRegion, pods int, names ...string) []*clusterv1alpha1.Cluster {
	var out []*clusterv1alpha1.Cluster
	for _, r := range names {
		for i := 1; i <= perRegion; i++ {
			out = append(out, member(fmt.Sprintf("%s-%d", r, i)).WithRegion(r).
				WithAllocatable(corev1.ResourcePods, fmt.Sprint(pods)).Build())
		}
	}
	return out
}

func TestScheduleSpreadByRegion(t *testing.T) {
	t.Parallel()
	spread := func(regionMin, regionMax, clusterMin, clusterMax int) []policyv1alpha1.SpreadConstraint {
		return []policyv1alpha1.SpreadConstraint{
			{SpreadByField: policyv1alpha1.SpreadByFieldRegion, MinGroups: regionMin, MaxGroups: regionMax},
			{SpreadByField: policyv1alpha1.SpreadByFieldCluster, MinGroups: clusterMin, MaxGroups: clusterMax},
		}
	}
	run(t, []scheduleCase{{
		// Checked against Karmada's scheduler.
		name:     "Dynamic weight spreads over the regions needed for the cluster minimum, filled up to the cluster maximum",
		binding:  builders.NewBinding("web").WithReplicas(12).DynamicWeight().WithSpread(spread(2, 3, 2, 6)...),
		clusters: regions(4, 10, "r1", "r2", "r3"),
		want:     "r1-1:2 r1-2:2 r1-3:2 r1-4:2 r2-1:2 r2-2:2",
	}, {
		name:     "Duplicated scheduling by region uses one region when it holds the cluster minimum",
		binding:  builders.NewBinding("web").WithReplicas(3).Duplicated().WithSpread(spread(1, 3, 2, 4)...),
		clusters: regions(2, 10, "r1", "r2", "r3"),
		want:     "r1-1:3 r1-2:3",
	}})
}
