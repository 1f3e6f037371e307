package core_test

import (
	"testing"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestScheduleOverflow(t *testing.T) {
	t.Parallel()
	clusters := func() []*clusterv1alpha1.Cluster {
		return []*clusterv1alpha1.Cluster{withRoom("primary", 4), withRoom("spill-a", 3), withRoom("spill-b", 10), withRoom("other", 100)}
	}
	term := policyv1alpha1.ClusterAffinityTerm{
		AffinityName:    "home",
		ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{"primary"}},
		OverflowAffinities: []policyv1alpha1.OverflowClusterAffinity{
			{AffinityName: "near", ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{"spill-a", "primary"}}},
			{AffinityName: "far", ClusterAffinity: policyv1alpha1.ClusterAffinity{ClusterNames: []string{"spill-b"}}},
		},
	}
	aggregated := func(replicas int32) *builders.BindingBuilder {
		return builders.NewBinding("web").WithReplicas(replicas).Divided(policyv1alpha1.ReplicaDivisionPreferenceAggregated).WithClusterAffinities(term)
	}
	run(t, []scheduleCase{{
		name: "what the term's own group holds stays there", binding: aggregated(3), clusters: clusters(),
		want: "primary:3", wantAffinity: "home",
	}, {
		name: "the rest spills into the first overflow group, then the next", binding: aggregated(9), clusters: clusters(),
		want: "primary:4 spill-a:3 spill-b:2", wantAffinity: "home",
	}, {
		// Full where they run: what each holds is its room.
		name: "a scale-down empties the last groups first", binding: aggregated(5).ScheduledTo("primary", 4).ScheduledTo("spill-a", 3).ScheduledTo("spill-b", 2),
		clusters: []*clusterv1alpha1.Cluster{withRoom("primary", 0), withRoom("spill-a", 0), withRoom("spill-b", 8), withRoom("other", 100)},
		want:     "primary:4 spill-a:1", wantAffinity: "home",
	}, {
		// The clusters' room does not show yet what they were given.
		name: "a decision made stands while the room reported lags behind it", binding: aggregated(6).ScheduledTo("primary", 4).ScheduledTo("spill-a", 2),
		clusters: clusters(), want: "primary:4 spill-a:2", wantAffinity: "home",
	}, {
		name: "a scale-up keeps what runs and adds where there is room, in order", binding: aggregated(8).ScheduledTo("primary", 4).ScheduledTo("spill-a", 2),
		clusters: []*clusterv1alpha1.Cluster{withRoom("primary", 0), withRoom("spill-a", 1), withRoom("spill-b", 8), withRoom("other", 100)},
		want:     "primary:4 spill-a:3 spill-b:1", wantAffinity: "home",
	}, {
		name: "more than every group holds is unschedulable", binding: aggregated(30), clusters: clusters(),
		wantErr: `affinity "home": the term's group and its 2 overflow group(s) can take 17 replica(s), fewer than the 30 needed`,
	}})
}
