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
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func byNames(names ...string) policyv1alpha1.ClusterAffinity {
	return policyv1alpha1.ClusterAffinity{ClusterNames: names}
}

func byLabel(key, value string) policyv1alpha1.ClusterAffinity {
	return policyv1alpha1.ClusterAffinity{LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{key: value}}}
}

func TestScheduleDuplicatedAndStaticWeights(t *testing.T) {
	t.Parallel()
	gold := member("m1").WithLabel("tier", "gold").Build()
	run(t, []scheduleCase{{
		name:     "Duplicated gives every feasible cluster all the replicas",
		binding:  builders.NewBinding("web").WithReplicas(4).Duplicated(),
		clusters: members("m3", "m1", "m2"),
		want:     "m1:4 m2:4 m3:4",
	}, {
		name:     "A placement without replica scheduling is duplicated",
		binding:  builders.NewBinding("web").WithReplicas(2),
		clusters: members("m1", "m2"),
		want:     "m1:2 m2:2",
	}, {
		name: "A cluster matched by several rules takes the largest of their weights",
		binding: builders.NewBinding("web").WithReplicas(8).
			WithStaticWeight(1, byNames("m1")).WithStaticWeight(3, byLabel("tier", "gold")).WithStaticWeight(1, byNames("m2")),
		clusters: []*clusterv1alpha1.Cluster{gold, member("m2").Build()},
		want:     "m1:6 m2:2",
	}, {
		name: "Rules select by name and by label selector, and a cluster no rule matches gets nothing",
		binding: builders.NewBinding("web").WithReplicas(3).
			WithStaticWeight(2, byNames("m2")).WithStaticWeight(1, byLabel("tier", "gold")),
		clusters: []*clusterv1alpha1.Cluster{gold, member("m2").Build(), member("m3").Build()},
		want:     "m1:1 m2:2",
	}, {
		name:     "When no rule matches any cluster every cluster weighs 1",
		binding:  builders.NewBinding("web").WithReplicas(6).WithStaticWeight(5, byNames("elsewhere")),
		clusters: members("m1", "m2", "m3"),
		want:     "m1:2 m2:2 m3:2",
	}, {
		name:     "Weighted division without a weight preference splits evenly",
		binding:  builders.NewBinding("web").WithReplicas(5).Divided(policyv1alpha1.ReplicaDivisionPreferenceWeighted),
		clusters: members("m1", "m2"),
		want:     "m1:3 m2:2",
	}, {
		name:     "Weights 5:3 split 8 replicas exactly 5:3",
		binding:  builders.NewBinding("web").WithReplicas(8).WithStaticWeight(5, byNames("m1")).WithStaticWeight(3, byNames("m2")),
		clusters: members("m1", "m2"),
		want:     "m1:5 m2:3",
	}, {
		// Webster: seats go m1 (5), m2 (3), m1 (5/3), then m1 (5/5=1) and
		// m2 (3/3=1) tie and the cluster holding fewer seats wins.
		name:     "Weights 5:3 split 4 replicas 2:2 because the tie goes to the cluster with fewer seats",
		binding:  builders.NewBinding("web").WithReplicas(4).WithStaticWeight(5, byNames("m1")).WithStaticWeight(3, byNames("m2")),
		clusters: members("m1", "m2"),
		want:     "m1:2 m2:2",
	}, {
		name: "Duplicated spread by cluster prefers, among equal scores, the clusters with more room",
		binding: builders.NewBinding("web").WithReplicas(2).Duplicated().WithSpread(policyv1alpha1.SpreadConstraint{
			SpreadByField: policyv1alpha1.SpreadByFieldCluster, MinGroups: 1, MaxGroups: 2}),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 1), withRoom("m2", 5), withRoom("m3", 3)},
		want:     "m2:2 m3:2",
	}, {
		name: "Static weights ignore capacity and the previous result",
		binding: builders.NewBinding("web").WithReplicas(4).ScheduledTo("m1", 4).
			WithStaticWeight(1, byNames("m1", "m2")),
		clusters: members("m1", "m2"),
		want:     "m1:2 m2:2",
	}})
}

func TestScheduleDynamicWeight(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	two := func() []*clusterv1alpha1.Cluster {
		return []*clusterv1alpha1.Cluster{withRoom("m1", 2), withRoom("m2", 6)}
	}
	run(t, []scheduleCase{{
		name:     "A first schedule divides by available replicas",
		binding:  builders.NewBinding("web").WithReplicas(4).DynamicWeight(),
		clusters: two(),
		want:     "m1:1 m2:3",
	}, {
		name: "Fresh mode weighs clusters by available plus previously assigned replicas",
		binding: builders.NewBinding("web").WithReplicas(8).DynamicWeight().ScheduledTo("m1", 4).
			RescheduleTriggeredAt(now).LastScheduledAt(now.Add(-time.Minute)),
		clusters: two(),
		want:     "m1:4 m2:4",
	}, {
		name: "A reschedule request older than the last schedule is not fresh",
		binding: builders.NewBinding("web").WithReplicas(8).DynamicWeight().ScheduledTo("m1", 4).
			RescheduleTriggeredAt(now.Add(-time.Minute)).LastScheduledAt(now),
		clusters: two(),
		want:     "m1:5 m2:3",
	}, {
		name:     "Steady scale-up divides only the increase by available replicas",
		binding:  builders.NewBinding("web").WithReplicas(8).DynamicWeight().ScheduledTo("m1", 2).ScheduledTo("m2", 2),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 1), withRoom("m2", 3)},
		want:     "m1:3 m2:5",
	}, {
		name:     "Steady scale-down shrinks the previous result in proportion to itself",
		binding:  builders.NewBinding("web").WithReplicas(4).DynamicWeight().ScheduledTo("m1", 6).ScheduledTo("m2", 2),
		clusters: two(),
		want:     "m1:3 m2:1",
	}, {
		name:     "An unchanged replica count keeps the previous result whatever the capacity",
		binding:  builders.NewBinding("web").WithReplicas(4).DynamicWeight().ScheduledTo("m1", 1).ScheduledTo("m2", 3),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 100), withRoom("m2", 0)},
		want:     "m1:1 m2:3",
	}, {
		name: "Replicas on a cluster that is no longer feasible are placed again",
		binding: builders.NewBinding("web").WithReplicas(4).DynamicWeight().ScheduledTo("m1", 2).ScheduledTo("gone", 2).
			WithExclude("gone"),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 0), withRoom("m2", 5), withRoom("gone", 5)},
		want:     "m1:2 m2:2",
	}, {
		name:     "More replicas than the clusters can take is unschedulable",
		binding:  builders.NewBinding("web").WithReplicas(5).DynamicWeight(),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 1), withRoom("m2", 2)},
		wantErr:  "the 2 selected cluster(s) can take 3 more replica(s), fewer than the 5 needed (room m1: 1, m2: 2; a cluster that reports resource models holds only replicas that fit on one of its nodes)",
	}, {
		name:     "A cluster without a resource summary has no room",
		binding:  builders.NewBinding("web").WithReplicas(1).DynamicWeight(),
		clusters: members("m1"),
		wantErr:  "the 1 selected cluster(s) can take 0 more replica(s), fewer than the 1 needed (room m1: 0; a cluster that reports resource models holds only replicas that fit on one of its nodes)",
	}, {
		name: "Spread by cluster keeps the clusters with the most room",
		binding: builders.NewBinding("web").WithReplicas(6).DynamicWeight().WithSpread(policyv1alpha1.SpreadConstraint{
			SpreadByField: policyv1alpha1.SpreadByFieldCluster, MinGroups: 1, MaxGroups: 2}),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 1), withRoom("m2", 4), withRoom("m3", 8)},
		want:     "m2:2 m3:4",
	}, {
		// Spread selection counts the replicas a cluster already runs as
		// room, as Karmada does; the division then keeps them in place.
		name: "Spread selection counts the replicas a cluster already runs as room",
		binding: builders.NewBinding("web").WithReplicas(5).DynamicWeight().ScheduledTo("m1", 4).WithSpread(policyv1alpha1.SpreadConstraint{
			SpreadByField: policyv1alpha1.SpreadByFieldCluster, MinGroups: 1, MaxGroups: 1}),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 1), withRoom("m2", 3)},
		want:     "m1:5",
	}})
}

func TestScheduleAggregatedAndEmptyWorkloads(t *testing.T) {
	t.Parallel()
	three := func() []*clusterv1alpha1.Cluster {
		return []*clusterv1alpha1.Cluster{withRoom("m1", 2), withRoom("m2", 10), withRoom("m3", 5)}
	}
	aggregated := func(replicas int32) *builders.BindingBuilder {
		return builders.NewBinding("web").WithReplicas(replicas).Divided(policyv1alpha1.ReplicaDivisionPreferenceAggregated)
	}
	run(t, []scheduleCase{{
		name:     "Aggregated fits the replicas in the single cluster with the most room",
		binding:  aggregated(6),
		clusters: three(),
		want:     "m2:6",
	}, {
		name:     "Aggregated spreads over the fewest clusters, in proportion to their room",
		binding:  aggregated(12),
		clusters: three(),
		want:     "m2:8 m3:4",
	}, {
		name:     "Aggregated scale-up stays on the clusters already in use when they have room",
		binding:  aggregated(5).ScheduledTo("m3", 2),
		clusters: three(),
		want:     "m3:5",
	}, {
		name:     "Aggregated without enough room is unschedulable",
		binding:  aggregated(18),
		clusters: three(),
		wantErr:  "the 3 selected cluster(s) can take 17 more replica(s), fewer than the 18 needed (room m1: 2, m2: 10, m3: 5; a cluster that reports resource models holds only replicas that fit on one of its nodes)",
	}, {
		name:     "A kind without replicas goes to every feasible cluster with 0 replicas",
		binding:  builders.NewBinding("settings").ForResource("v1", "ConfigMap").DynamicWeight(),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m2", 0), builders.NewCluster("apps-only").WithAPI("apps/v1", "Deployment").Build(), withRoom("m1", 0)},
		want:     "m1:0 m2:0",
	}, {
		name:     "A Deployment scaled to zero is kept on the Duplicated clusters with 0 replicas",
		binding:  builders.NewBinding("web").Duplicated(),
		clusters: members("m1", "m2"),
		want:     "m1:0 m2:0",
	}})
}
