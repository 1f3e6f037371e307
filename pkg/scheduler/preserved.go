package scheduler

import (
	"sync"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
)

// lastStates remembers, per binding, what failover.cluster.statePreservation
// last read from the workload's status in each of its clusters. A cluster
// that fails often stops reporting (its status goes stale or is dropped)
// before the eviction comes: the state read while it still reported is
// what travels. It lives in memory, for bindings that preserve state.
type lastStates struct {
	mu sync.Mutex
	m  map[binding.Key]map[string]map[string]string
}

// observe reads the state of every cluster that reports it now, keeps it,
// and returns the latest known state of each cluster.
func (l *lastStates) observe(k binding.Key, spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus) map[string]map[string]string {
	var rules *policyv1alpha1.StatePreservation
	if f := spec.Failover; f != nil && f.Cluster != nil {
		rules = f.Cluster.StatePreservation
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if rules == nil || len(rules.Rules) == 0 {
		delete(l.m, k)
		return nil
	}
	if l.m == nil {
		l.m = map[binding.Key]map[string]map[string]string{}
	}
	known := l.m[k]
	next := make(map[string]map[string]string, len(spec.Clusters))
	items := map[string]workv1alpha2.AggregatedStatusItem{}
	if status != nil {
		for _, it := range status.AggregatedStatus {
			items[it.ClusterName] = it
		}
	}
	for _, tc := range spec.Clusters {
		if state := preservedState(rules, items[tc.Name]); state != nil {
			next[tc.Name] = state
		} else if state, ok := known[tc.Name]; ok {
			next[tc.Name] = state
		}
	}
	l.m[k] = next
	return next
}

// forget drops a deleted binding's states.
func (l *lastStates) forget(k binding.Key) {
	l.mu.Lock()
	defer l.mu.Unlock()
	delete(l.m, k)
}
