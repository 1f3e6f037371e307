package scheduler

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/testing/builders"
)

func TestClusterChange(t *testing.T) {
	t.Parallel()
	base := func() *builders.ClusterBuilder {
		return builders.NewCluster("member1").WithRegion("eu").WithLabel("env", "prod").
			WithCondition(clusterv1alpha1.ClusterConditionReady, metav1.ConditionTrue).
			WithAPI("apps/v1", "Deployment").WithAllocatable(corev1.ResourceCPU, "8").WithAllocated(corev1.ResourceCPU, "1")
	}
	heartbeat := base().Build()
	heartbeat.Status.Conditions[0].LastTransitionTime = metav1.Now()
	heartbeat.Status.Conditions[0].Message = "still healthy"
	cases := []struct {
		name string
		b    *clusterv1alpha1.Cluster
		want clusterChangeKind
	}{
		{"a heartbeat is no change", heartbeat, unchanged},
		{"pods started there move only the capacity", base().WithAllocated(corev1.ResourceCPU, "2").Build(), capacityChanged},
		{"a label counts for placement", base().WithLabel("env", "staging").Build(), placementChanged},
		{"a taint counts for placement", base().WithTaint("maintenance", "", corev1.TaintEffectNoSchedule).Build(), placementChanged},
		{"readiness counts for placement", builders.NewCluster("member1").WithRegion("eu").WithLabel("env", "prod").
			WithCondition(clusterv1alpha1.ClusterConditionReady, metav1.ConditionFalse).
			WithAPI("apps/v1", "Deployment").WithAllocatable(corev1.ResourceCPU, "8").WithAllocated(corev1.ResourceCPU, "1").Build(), placementChanged},
		{"a new API counts for placement, capacity or not", base().WithAPI("batch/v1", "Job").WithAllocated(corev1.ResourceCPU, "3").Build(), placementChanged},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			if got := clusterChange(base().Build(), c.b); got != c.want {
				t.Errorf("clusterChange = %v, want %v", got, c.want)
			}
		})
	}
}

// TestResponsibleFor: a scheduler places the bindings that name it in
// spec.schedulerName (its default name when empty), never those of
// another scheduler, nor those without placement (dependencies).
func TestResponsibleFor(t *testing.T) {
	t.Parallel()
	s := &Scheduler{name: DefaultSchedulerName}
	placed := &policyv1alpha1.Placement{}
	cases := []struct {
		name string
		spec workv1alpha2.ResourceBindingSpec
		want bool
	}{
		{"Empty schedulerName is the default scheduler's.", workv1alpha2.ResourceBindingSpec{Placement: placed}, true},
		{"Its own name.", workv1alpha2.ResourceBindingSpec{Placement: placed, SchedulerName: DefaultSchedulerName}, true},
		{"Another scheduler's.", workv1alpha2.ResourceBindingSpec{Placement: placed, SchedulerName: "gpu-scheduler"}, false},
		{"No placement: a dependency.", workv1alpha2.ResourceBindingSpec{}, false},
	}
	for _, tc := range cases {
		if got := s.responsibleFor(&tc.spec); got != tc.want {
			t.Errorf("%s: responsibleFor = %v, want %v", tc.name, got, tc.want)
		}
	}
}
