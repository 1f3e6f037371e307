package rollout

import (
	"encoding/json"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// Observation is what a cluster's Work says about the revision it runs.
type Observation struct {
	// Revision the Work's manifest was rendered from; 0 when the Work is
	// missing, carries no revision, or is not yet applied as it stands.
	Revision int64
	// Health at that revision.
	Health rolloutv1alpha1.ClusterHealth
	// Message says what is not healthy.
	Message string
}

// Observe reads a cluster's Work (nil when there is none) for a template
// of kind gvk under check. A Work counts only once the execution
// controller has applied its current generation and the status controller
// has judged that generation; until then the health is Unknown.
func Observe(w *workv1alpha1.Work, gvk schema.GroupVersionKind, check rolloutv1alpha1.HealthCheck) Observation {
	if w == nil {
		return Observation{Health: rolloutv1alpha1.ClusterHealthUnknown, Message: "no Work yet"}
	}
	rev, err := strconv.ParseInt(w.Annotations[rolloutv1alpha1.RevisionAnnotation], 10, 64)
	if err != nil {
		return Observation{Health: rolloutv1alpha1.ClusterHealthUnknown, Message: "the Work carries no revision yet"}
	}
	applied := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkApplied)
	switch {
	case applied == nil || applied.ObservedGeneration != w.Generation:
		return Observation{Health: rolloutv1alpha1.ClusterHealthUnknown, Message: "not applied yet"}
	case applied.Status != metav1.ConditionTrue:
		return Observation{Health: rolloutv1alpha1.ClusterHealthUnknown, Message: "not applied: " + applied.Message}
	}
	o := Observation{Revision: rev, Health: rolloutv1alpha1.ClusterHealthUnknown}
	available := meta.FindStatusCondition(w.Status.Conditions, workv1alpha1.WorkAvailable)
	if available == nil || available.ObservedGeneration != w.Generation || len(w.Status.ManifestStatuses) == 0 {
		o.Message = "health not observed yet"
		return o
	}
	st := w.Status.ManifestStatuses[0]
	switch {
	case check.Condition != nil:
		o.Health, o.Message = conditionHealth(st, *check.Condition)
	case st.Health == workv1alpha1.ResourceHealthy:
		o.Health, o.Message = kindHealth(st, gvk)
	case st.Health == workv1alpha1.ResourceUnhealthy:
		o.Health, o.Message = rolloutv1alpha1.ClusterUnhealthy, available.Message
	default:
		o.Message = available.Message
	}
	return o
}

// kindHealth refines the kind's own health where a rollout needs more: a
// Job counts once complete, not merely not failed; a Deployment once no
// pod of an earlier revision is left and every one is available.
func kindHealth(st workv1alpha1.ManifestStatus, gvk schema.GroupVersionKind) (rolloutv1alpha1.ClusterHealth, string) {
	switch {
	case gvk.Group == "batch" && gvk.Kind == "Job":
		return conditionHealth(st, rolloutv1alpha1.ConditionCheck{Type: "Complete", Status: metav1.ConditionTrue})
	case gvk.Group == "apps" && gvk.Kind == "Deployment":
		var s struct {
			Replicas, UpdatedReplicas, AvailableReplicas, UnavailableReplicas int32
		}
		if st.Status != nil {
			_ = json.Unmarshal(st.Status.Raw, &s)
		}
		if s.Replicas != s.UpdatedReplicas || s.AvailableReplicas < s.UpdatedReplicas || s.UnavailableReplicas > 0 {
			return rolloutv1alpha1.ClusterUnhealthy, fmt.Sprintf("%d of %d replicas updated, %d available", s.UpdatedReplicas, s.Replicas, s.AvailableReplicas)
		}
	}
	return rolloutv1alpha1.ClusterHealthy, ""
}

// conditionHealth checks a condition of the reflected status.
func conditionHealth(st workv1alpha1.ManifestStatus, want rolloutv1alpha1.ConditionCheck) (rolloutv1alpha1.ClusterHealth, string) {
	status := want.Status
	if status == "" {
		status = metav1.ConditionTrue
	}
	var reflected struct {
		Conditions []struct {
			Type    string `json:"type"`
			Status  string `json:"status"`
			Message string `json:"message"`
		} `json:"conditions"`
	}
	if st.Status != nil {
		_ = json.Unmarshal(st.Status.Raw, &reflected)
	}
	for _, c := range reflected.Conditions {
		if c.Type != want.Type {
			continue
		}
		if c.Status == string(status) {
			return rolloutv1alpha1.ClusterHealthy, ""
		}
		return rolloutv1alpha1.ClusterUnhealthy, fmt.Sprintf("condition %s is %s, not %s: %s", c.Type, c.Status, status, c.Message)
	}
	return rolloutv1alpha1.ClusterHealthUnknown, fmt.Sprintf("no condition %s yet", want.Type)
}

// ObserveAddon reads what an Addon's status says of a cluster (nil when
// it says nothing): its revision counts once the add-on controller has
// judged it there; Healthy is healthy, Failed and Degraded unhealthy, any
// other phase (installing, waiting, blocked) not known yet.
func ObserveAddon(c *addonsv1alpha1.AddonClusterStatus) Observation {
	if c == nil {
		return Observation{Health: rolloutv1alpha1.ClusterHealthUnknown, Message: "the add-on has no status for the cluster yet"}
	}
	o := Observation{Revision: c.Revision, Health: rolloutv1alpha1.ClusterHealthUnknown, Message: c.Message}
	switch c.Phase {
	case addonsv1alpha1.PhaseHealthy:
		o.Health = rolloutv1alpha1.ClusterHealthy
	case addonsv1alpha1.PhaseFailed, addonsv1alpha1.PhaseDegraded:
		o.Health = rolloutv1alpha1.ClusterUnhealthy
	case addonsv1alpha1.PhaseInstalling, "":
	default:
		o.Revision = 0 // nothing of this revision is applied there
	}
	if o.Message == "" {
		o.Message = string(c.Phase)
	}
	return o
}
