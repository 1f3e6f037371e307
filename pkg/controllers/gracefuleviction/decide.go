package gracefuleviction

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"time"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// verdict is what becomes of one eviction task now.
type verdict struct {
	// remove ends the task: the binding controller then withdraws the copy.
	remove bool
	// after is when to look again while the task waits (0: only on change).
	after time.Duration
	// overdue is set when the grace period has passed but the new
	// placement is not yet running everything; it says what is missing.
	overdue string
}

// decideTask decides one task of a binding. The old copy goes when every
// cluster of the new placement runs the workload healthy; past the grace
// period it still stays until then (never leaving fewer replicas running
// than asked), and an empty placement never counts as healthy.
func decideTask(task workv1alpha2.GracefulEvictionTask, spec *workv1alpha2.ResourceBindingSpec,
	status *workv1alpha2.ResourceBindingStatus, now time.Time, defaultGrace time.Duration) verdict {
	if task.SuppressDeletion != nil {
		return verdict{remove: !*task.SuppressDeletion}
	}
	switch task.PurgeMode {
	case policyv1alpha1.PurgeModeDirectly:
		return verdict{remove: true}
	case policyv1alpha1.Never:
		return verdict{}
	}
	missing := notRunning(spec, status)
	if missing == "" {
		return verdict{remove: true}
	}
	grace := defaultGrace
	if task.GracePeriodSeconds != nil {
		grace = time.Duration(*task.GracePeriodSeconds) * time.Second
	}
	created := now
	if task.CreationTimestamp != nil {
		created = task.CreationTimestamp.Time
	}
	if left := created.Add(grace).Sub(now); left > 0 {
		return verdict{after: left}
	}
	return verdict{overdue: missing}
}

// notRunning says what of the new placement is not running healthy yet,
// or "" when everything is.
func notRunning(spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus) string {
	if len(spec.Clusters) == 0 {
		return "the new placement has no cluster"
	}
	items := map[string]workv1alpha2.AggregatedStatusItem{}
	for _, it := range status.AggregatedStatus {
		items[it.ClusterName] = it
	}
	var missing []string
	for _, tc := range spec.Clusters {
		it, ok := items[tc.Name]
		switch {
		case !ok || !it.Applied:
			missing = append(missing, tc.Name+": not applied yet")
		case it.Health != workv1alpha2.ResourceHealthy:
			missing = append(missing, fmt.Sprintf("%s: %s", tc.Name, orUnknown(string(it.Health))))
		default:
			if n, ok := available(it); ok && n < tc.Replicas {
				missing = append(missing, fmt.Sprintf("%s: %d/%d available", tc.Name, n, tc.Replicas))
			}
		}
	}
	sort.Strings(missing)
	return strings.Join(missing, ", ")
}

// available reads availableReplicas from a member's reflected status, for
// the kinds that report it.
func available(it workv1alpha2.AggregatedStatusItem) (int32, bool) {
	if it.Status == nil {
		return 0, false
	}
	var s struct {
		Replicas          *int32 `json:"replicas"`
		AvailableReplicas int32  `json:"availableReplicas"`
	}
	if err := json.Unmarshal(it.Status.Raw, &s); err != nil || s.Replicas == nil {
		return 0, false
	}
	return s.AvailableReplicas, true
}

func orUnknown(s string) string {
	if s == "" {
		return "health unknown"
	}
	return s
}
