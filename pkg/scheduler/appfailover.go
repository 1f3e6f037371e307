package scheduler

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"time"

	"k8s.io/client-go/util/jsonpath"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/binding"
)

// EvictionProducerApplicationFailover marks tasks written because the
// workload stayed unhealthy in a cluster (Karmada's producer name).
const EvictionProducerApplicationFailover = "resource-binding-application-failover-controller"

// unhealthySince remembers since when a binding's workload has been
// unhealthy in each cluster. It lives in memory: after a restart the
// toleration starts again, which errs on the side of not moving.
type unhealthySince struct {
	mu sync.Mutex
	m  map[binding.Key]map[string]time.Time
}

// observe records the clusters where the workload is unhealthy now and
// returns since when each has been.
func (u *unhealthySince) observe(k binding.Key, unhealthy []string, now time.Time) map[string]time.Time {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.m == nil {
		u.m = map[binding.Key]map[string]time.Time{}
	}
	prev := u.m[k]
	next := make(map[string]time.Time, len(unhealthy))
	for _, c := range unhealthy {
		if t, ok := prev[c]; ok {
			next[c] = t
		} else {
			next[c] = now
		}
	}
	if len(next) == 0 {
		delete(u.m, k)
	} else {
		u.m[k] = next
	}
	return next
}

// applicationFailures lists the clusters the workload has been unhealthy
// in for longer than failover.application's tolerationSeconds, and how
// long until the next one is due.
func applicationFailures(k binding.Key, spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus,
	tracker *unhealthySince, now time.Time) ([]evictionRequest, time.Duration) {
	var app *policyv1alpha1.ApplicationFailoverBehavior
	if spec.Failover != nil {
		app = spec.Failover.Application
	}
	if app == nil {
		tracker.observe(k, nil, now)
		return nil, 0
	}
	tolerate := time.Duration(policyv1alpha1.DefaultApplicationFailoverTolerationSeconds) * time.Second
	if s := app.DecisionConditions.TolerationSeconds; s != nil {
		tolerate = time.Duration(*s) * time.Second
	}
	items := map[string]workv1alpha2.AggregatedStatusItem{}
	for _, it := range status.AggregatedStatus {
		items[it.ClusterName] = it
	}
	var unhealthy []string
	for _, tc := range spec.Clusters {
		if it, ok := items[tc.Name]; ok && it.Health == workv1alpha2.ResourceUnhealthy {
			unhealthy = append(unhealthy, tc.Name)
		}
	}
	since := tracker.observe(k, unhealthy, now)
	var out []evictionRequest
	var next time.Duration
	for _, c := range unhealthy {
		left := since[c].Add(tolerate).Sub(now)
		if left > 0 {
			if next == 0 || left < next {
				next = left
			}
			continue
		}
		purge := app.PurgeMode
		if purge == "" {
			purge = policyv1alpha1.PurgeModeGracefully
		}
		out = append(out, evictionRequest{cluster: c, reason: workv1alpha2.EvictionReasonApplicationFailure,
			producer: EvictionProducerApplicationFailover, purge: purge, gracePeriod: app.GracePeriodSeconds,
			why:       fmt.Sprintf("unhealthy for more than %s", tolerate),
			preserved: preservedState(app.StatePreservation, items[c])})
	}
	return out, next
}

// preservedState evaluates the statePreservation rules on the workload's
// status in the cluster it leaves; the values travel to the new clusters
// as labels. A rule that does not evaluate is left out.
func preservedState(sp *policyv1alpha1.StatePreservation, it workv1alpha2.AggregatedStatusItem) map[string]string {
	if sp == nil || len(sp.Rules) == 0 || it.Status == nil {
		return nil
	}
	var status any
	if err := json.Unmarshal(it.Status.Raw, &status); err != nil {
		return nil
	}
	out := map[string]string{}
	for _, r := range sp.Rules {
		jp := jsonpath.New(r.AliasLabelName)
		if err := jp.Parse(r.JSONPath); err != nil {
			continue
		}
		var b strings.Builder
		if err := jp.Execute(&b, status); err != nil {
			continue
		}
		out[r.AliasLabelName] = b.String()
	}
	if len(out) == 0 {
		return nil
	}
	return out
}
