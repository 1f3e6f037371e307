package scheduler

import (
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
)

func TestApplicationFailures(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	k := binding.Key{Namespace: "ns", Name: "web-deployment"}
	spec := &workv1alpha2.ResourceBindingSpec{
		Clusters: []workv1alpha2.TargetCluster{{Name: "member1", Replicas: 2}, {Name: "member2", Replicas: 2}},
		Failover: &policyv1alpha1.FailoverBehavior{Application: &policyv1alpha1.ApplicationFailoverBehavior{
			DecisionConditions: policyv1alpha1.DecisionConditions{TolerationSeconds: ptr.To[int32](60)},
			PurgeMode:          policyv1alpha1.PurgeModeDirectly,
			StatePreservation: &policyv1alpha1.StatePreservation{Rules: []policyv1alpha1.StatePreservationRule{
				{AliasLabelName: "failover.example.com/replicas", JSONPath: "{ .replicas }"},
				{AliasLabelName: "broken", JSONPath: "{ .nope[ }"},
			}},
		}},
	}
	status := func(h2 workv1alpha2.ResourceHealth) *workv1alpha2.ResourceBindingStatus {
		return &workv1alpha2.ResourceBindingStatus{AggregatedStatus: []workv1alpha2.AggregatedStatusItem{
			{ClusterName: "member1", Applied: true, Health: workv1alpha2.ResourceHealthy},
			{ClusterName: "member2", Applied: true, Health: h2, Status: &runtime.RawExtension{Raw: []byte(`{"replicas":2,"availableReplicas":0}`)}},
		}}
	}
	var tr unhealthySince
	steps := []struct {
		name    string
		health  workv1alpha2.ResourceHealth
		at      time.Duration
		evict   bool
		nextDue time.Duration
	}{
		{"turns unhealthy: the toleration starts", workv1alpha2.ResourceUnhealthy, 0, false, time.Minute},
		{"still within the toleration", workv1alpha2.ResourceUnhealthy, 30 * time.Second, false, 30 * time.Second},
		{"healthy again: forgotten", workv1alpha2.ResourceHealthy, 40 * time.Second, false, 0},
		{"unhealthy again: starts over", workv1alpha2.ResourceUnhealthy, 50 * time.Second, false, time.Minute},
		{"past the toleration: leave", workv1alpha2.ResourceUnhealthy, 110 * time.Second, true, 0},
	}
	for _, st := range steps {
		reqs, next := applicationFailures(k, spec, status(st.health), &tr, t0.Add(st.at))
		if (len(reqs) == 1) != st.evict || next != st.nextDue {
			t.Fatalf("%s: requests %+v next %s", st.name, reqs, next)
		}
		if st.evict {
			r := reqs[0]
			if r.cluster != "member2" || r.reason != workv1alpha2.EvictionReasonApplicationFailure || r.purge != policyv1alpha1.PurgeModeDirectly ||
				r.producer != EvictionProducerApplicationFailover || r.preserved["failover.example.com/replicas"] != "2" || len(r.preserved) != 1 {
				t.Fatalf("%s: request %+v", st.name, r)
			}
		}
	}
	noFailover := spec.DeepCopy()
	noFailover.Failover = nil
	if reqs, _ := applicationFailures(k, noFailover, status(workv1alpha2.ResourceUnhealthy), &tr, t0.Add(time.Hour)); len(reqs) != 0 {
		t.Fatalf("without failover.application nothing moves: %+v", reqs)
	}
}
