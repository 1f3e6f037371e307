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
	"errors"
	"testing"

	corev1 "k8s.io/api/core/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/scheduler/core"
	"github.com/mco-org/mco/pkg/scheduler/plugins"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func term(name string, clusters ...string) policyv1alpha1.ClusterAffinityTerm {
	return policyv1alpha1.ClusterAffinityTerm{AffinityName: name, ClusterAffinity: byNames(clusters...)}
}

func notReady(name string) *clusterv1alpha1.Cluster {
	return member(name).WithTaint(clusterv1alpha1.TaintClusterNotReady, "", corev1.TaintEffectNoSchedule).Build()
}

func TestScheduleClusterAffinities(t *testing.T) {
	t.Parallel()
	run(t, []scheduleCase{{
		name:         "The first term is used when it fits",
		binding:      builders.NewBinding("web").WithReplicas(2).Duplicated().WithClusterAffinities(term("primary", "m1"), term("backup", "m2", "m3")),
		clusters:     members("m1", "m2", "m3"),
		want:         "m1:2",
		wantAffinity: "primary",
	}, {
		name:         "When the first term has no fit the second one is used",
		binding:      builders.NewBinding("web").WithReplicas(2).Duplicated().WithClusterAffinities(term("primary", "m9"), term("backup", "m2", "m3")),
		clusters:     members("m1", "m2", "m3"),
		want:         "m2:2 m3:2",
		wantAffinity: "backup",
	}, {
		name: "A term whose clusters lack capacity gives way to the next",
		binding: builders.NewBinding("web").WithReplicas(4).DynamicWeight().
			WithClusterAffinities(term("primary", "m1"), term("backup", "m2")),
		clusters:     []*clusterv1alpha1.Cluster{withRoom("m1", 3), withRoom("m2", 4)},
		want:         "m2:4",
		wantAffinity: "backup",
	}, {
		name: "Scheduling starts from the term the status says is in use",
		binding: builders.NewBinding("web").WithReplicas(2).Duplicated().WithObservedAffinity("backup").
			WithClusterAffinities(term("primary", "m1"), term("backup", "m2", "m3")),
		clusters:     members("m1", "m2", "m3"),
		want:         "m2:2 m3:2",
		wantAffinity: "backup",
	}, {
		name: "An observed term that no longer exists starts from the first",
		binding: builders.NewBinding("web").WithReplicas(2).Duplicated().WithObservedAffinity("removed").
			WithClusterAffinities(term("primary", "m1"), term("backup", "m2")),
		clusters:     members("m1", "m2"),
		want:         "m1:2",
		wantAffinity: "primary",
	}, {
		name: "When no term fits, the reasons of every term tried are given",
		binding: builders.NewBinding("web").WithReplicas(2).Duplicated().
			WithClusterAffinities(term("primary", "m8"), term("backup", "m9")),
		clusters: members("m1", "m2"),
		wantErr: `affinity "primary": 0/2 clusters are available: 2 cluster(s) did not match the placement cluster affinity.; ` +
			`affinity "backup": 0/2 clusters are available: 2 cluster(s) did not match the placement cluster affinity.`,
	}})
}

func TestScheduleFilters(t *testing.T) {
	t.Parallel()
	run(t, []scheduleCase{{
		name:     "A NoSchedule taint keeps the cluster the binding already runs on",
		binding:  builders.NewBinding("web").WithReplicas(1).Duplicated().ScheduledTo("m1", 1),
		clusters: []*clusterv1alpha1.Cluster{notReady("m1"), member("m2").Build()},
		want:     "m1:1 m2:1",
	}, {
		name:     "A NoSchedule taint keeps a new binding away",
		binding:  builders.NewBinding("web").WithReplicas(1).Duplicated(),
		clusters: []*clusterv1alpha1.Cluster{notReady("m1"), member("m2").Build()},
		want:     "m2:1",
	}, {
		name: "A tolerated taint does not keep a new binding away",
		binding: builders.NewBinding("web").WithReplicas(1).Duplicated().WithToleration(corev1.Toleration{
			Key: clusterv1alpha1.TaintClusterNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoSchedule}),
		clusters: []*clusterv1alpha1.Cluster{notReady("m1"), member("m2").Build()},
		want:     "m1:1 m2:1",
	}, {
		name:     "A cluster the binding is being evicted from is left out",
		binding:  builders.NewBinding("web").WithReplicas(4).DynamicWeight().ScheduledTo("m1", 2).ScheduledTo("m2", 2).EvictingFrom("m1"),
		clusters: []*clusterv1alpha1.Cluster{withRoom("m1", 10), withRoom("m2", 1), withRoom("m3", 3)},
		want:     "m2:3 m3:1",
	}, {
		name:     "The reasons of every rejected cluster are counted in the message",
		binding:  builders.NewBinding("web").WithReplicas(1).Duplicated().WithClusterNames("m1"),
		clusters: []*clusterv1alpha1.Cluster{notReady("m1"), member("m2").Build(), member("m3").Build()},
		wantErr: "0/3 clusters are available: 1 cluster(s) had untolerated taint {cluster.karmada.io/not-ready: }, " +
			"2 cluster(s) did not match the placement cluster affinity.",
	}, {
		name:     "A cluster that does not serve the kind is left out",
		binding:  builders.NewBinding("job").ForResource("batch/v1", "Job").WithReplicas(1).Duplicated(),
		clusters: []*clusterv1alpha1.Cluster{member("m1").Build(), member("m2").WithAPI("batch/v1", "Job").Build()},
		want:     "m2:1",
	}})
}

func TestScheduleErrors(t *testing.T) {
	t.Parallel()
	fw, err := plugins.NewDefaultFramework(nil)
	if err != nil {
		t.Fatal(err)
	}
	s := core.New(fw, core.Steps{})
	rb := builders.NewBinding("web").WithReplicas(1).Duplicated().WithClusterNames("m1").Build()

	t.Run("When filtering leaves no cluster the error says so", func(t *testing.T) {
		t.Parallel()
		_, err := s.Schedule(context.Background(), core.Input{Spec: &rb.Spec, Status: &rb.Status, Clusters: members("m2")})
		var unsched *core.UnschedulableError
		if !errors.As(err, &unsched) || !unsched.NoClusterFit {
			t.Errorf("got %#v, want an UnschedulableError with NoClusterFit", err)
		}
	})
	t.Run("A cancelled context is an error, not a scheduling verdict", func(t *testing.T) {
		t.Parallel()
		ctx, cancel := context.WithCancel(context.Background())
		cancel()
		_, err := s.Schedule(ctx, core.Input{Spec: &rb.Spec, Status: &rb.Status, Clusters: members("m1")})
		var unsched *core.UnschedulableError
		if !errors.Is(err, context.Canceled) || errors.As(err, &unsched) {
			t.Errorf("got %v, want context.Canceled", err)
		}
	})
	t.Run("A static weight rule with a broken selector is an error", func(t *testing.T) {
		t.Parallel()
		bad := policyv1alpha1.ClusterAffinity{FieldSelector: &policyv1alpha1.FieldSelector{MatchExpressions: []corev1.NodeSelectorRequirement{
			{Key: "color", Operator: corev1.NodeSelectorOpIn, Values: []string{"red"}}}}}
		rb := builders.NewBinding("web").WithReplicas(2).WithStaticWeight(1, bad).Build()
		_, err := s.Schedule(context.Background(), core.Input{Spec: &rb.Spec, Status: &rb.Status, Clusters: members("m1")})
		var unsched *core.UnschedulableError
		if err == nil || errors.As(err, &unsched) {
			t.Errorf("got %v, want a plain error", err)
		}
	})
	t.Run("Every step of the algorithm is timed", func(t *testing.T) {
		t.Parallel()
		var steps []string
		s := core.New(fw, core.Steps{Observe: func(step string, _ float64) { steps = append(steps, step) }})
		if _, err := s.Schedule(context.Background(), core.Input{Spec: &rb.Spec, Status: &rb.Status, Clusters: members("m1")}); err != nil {
			t.Fatal(err)
		}
		want := []string{core.StepFilter, core.StepScore, core.StepSelect, core.StepAssignReplicas}
		if len(steps) != len(want) {
			t.Fatalf("steps = %v, want %v", steps, want)
		}
		for i := range want {
			if steps[i] != want[i] {
				t.Errorf("steps = %v, want %v", steps, want)
			}
		}
	})
}
