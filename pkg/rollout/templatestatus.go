package rollout

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Progressing condition reasons a Deployment template shows during a
// staged rollout. ProgressDeadlineExceeded is the reason `kubectl rollout
// status` stops on with an error.
const (
	ReasonStagedProgressing = "StagedRolloutProgressing"
	ReasonStagedPaused      = "StagedRolloutPaused"
	ReasonDeadlineExceeded  = "ProgressDeadlineExceeded"
)

// TemplateStatus adjusts a Deployment template's aggregated status while a
// staged rollout is not complete, so that `kubectl rollout status` neither
// reports success early nor waits in silence: only clusters given the
// current revision count as updated, and the Progressing condition says
// where the rollout stands (ProgressDeadlineExceeded once it failed).
// Other kinds, and complete rollouts, keep the status as aggregated.
// recorded is the status the template has now, whose condition times
// carry over while the condition stays the same.
func TemplateStatus(gvk schema.GroupVersionKind, status, recorded map[string]any, items []workv1alpha2.AggregatedStatusItem,
	ro *rolloutv1alpha1.Rollout, now metav1.Time) map[string]any {
	st := &ro.Status
	if gvk.Group != "apps" || gvk.Kind != "Deployment" || status == nil || st.CurrentRevision == 0 ||
		meta.IsStatusConditionTrue(st.Conditions, rolloutv1alpha1.ConditionComplete) {
		return status
	}
	given := map[string]int64{}
	for _, c := range st.Clusters {
		given[c.Name] = c.Revision
	}
	var updated int64
	for _, it := range items {
		if given[it.ClusterName] != st.CurrentRevision || it.Status == nil {
			continue
		}
		var s struct {
			UpdatedReplicas int64 `json:"updatedReplicas"`
		}
		if json.Unmarshal(it.Status.Raw, &s) == nil {
			updated += s.UpdatedReplicas
		}
	}
	status["updatedReplicas"] = updated
	cond := map[string]any{"type": "Progressing", "lastUpdateTime": now.UTC().Format(timeFormat)}
	msg := fmt.Sprintf("Staged rollout %s/%s of revision %d: %s", ro.Namespace, ro.Name, st.CurrentRevision, stateMessage(st))
	switch {
	case meta.IsStatusConditionTrue(st.Conditions, rolloutv1alpha1.ConditionFailed):
		cond["status"], cond["reason"] = "False", ReasonDeadlineExceeded
	case meta.IsStatusConditionTrue(st.Conditions, rolloutv1alpha1.ConditionPaused):
		cond["status"], cond["reason"] = "Unknown", ReasonStagedPaused
	default:
		cond["status"], cond["reason"] = "True", ReasonStagedProgressing
	}
	cond["message"] = msg
	cond["lastTransitionTime"] = cond["lastUpdateTime"]
	if old := progressing(recorded); old != nil && old["reason"] == cond["reason"] && old["status"] == cond["status"] {
		cond["lastTransitionTime"] = old["lastTransitionTime"]
		if old["message"] == msg {
			cond["lastUpdateTime"] = old["lastUpdateTime"]
		}
	}
	conds, _ := status["conditions"].([]any)
	out := []any{}
	for _, c := range conds {
		if m, ok := c.(map[string]any); !ok || m["type"] != "Progressing" {
			out = append(out, c)
		}
	}
	status["conditions"] = append(out, cond)
	return status
}

// progressing is the Progressing condition of a Deployment status.
func progressing(status map[string]any) map[string]any {
	conds, _ := status["conditions"].([]any)
	for _, c := range conds {
		if m, ok := c.(map[string]any); ok && m["type"] == "Progressing" {
			return m
		}
	}
	return nil
}

const timeFormat = "2006-01-02T15:04:05Z"

// stateMessage says where a rollout stands, for the template's condition.
func stateMessage(st *rolloutv1alpha1.RolloutStatus) string {
	if msg := st.StateMessage(); msg != "" {
		return msg
	}
	if s := st.State(); s != "" {
		return s
	}
	return "starting"
}
