package scheduler

import (
	"errors"

	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/scheduler/core"
)

// outcome is what a scheduling pass writes back to a binding.
type outcome struct {
	// clusters is the new spec.clusters; nil when spec stays as it is.
	clusters []workv1alpha2.TargetCluster
	// status is the new status; nil when it stays as it is.
	status *workv1alpha2.ResourceBindingStatus
	// result labels the attempt in metrics.
	result string
}

// decide turns a scheduling result (or error) into the writes to make. It
// writes nothing when the binding already reflects the decision, so that
// re-running the scheduler on unchanged inputs changes nothing.
func decide(spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus, generation int64,
	res core.Result, err error, now metav1.Time) outcome {
	next := status.DeepCopy()
	next.SchedulerObservedGeneration = generation
	cond := metav1.Condition{Type: workv1alpha2.Scheduled, ObservedGeneration: generation}
	var out outcome
	var unsched *core.UnschedulableError
	var overQuota *quotaExceededError
	switch {
	case err == nil:
		out.result = metrics.ResultScheduled
		cond.Status, cond.Reason, cond.Message = metav1.ConditionTrue, workv1alpha2.BindingReasonSuccess, "Binding has been scheduled successfully."
		next.SchedulerObservedAffinityName = res.AffinityName
		if !sameClusters(spec.Clusters, res.Clusters) {
			out.clusters = res.Clusters
			if out.clusters == nil {
				out.clusters = []workv1alpha2.TargetCluster{}
			}
		}
	case errors.As(err, &unsched):
		out.result = metrics.ResultUnschedulable
		cond.Status, cond.Message = metav1.ConditionFalse, unsched.Message
		cond.Reason = workv1alpha2.BindingReasonUnschedulable
		if unsched.NoClusterFit {
			cond.Reason = workv1alpha2.BindingReasonNoClusterFit
		}
	case errors.As(err, &overQuota):
		out.result = metrics.ResultUnschedulable
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, ReasonQuotaExceeded, overQuota.message
	default:
		out.result = metrics.ResultError
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, workv1alpha2.BindingReasonSchedulerError, err.Error()
	}
	meta.SetStatusCondition(&next.Conditions, cond)
	if err == nil && (out.clusters != nil || next.LastScheduledTime == nil || reschedulePending(spec, next)) {
		// A fresh decision answers the request even when it keeps the
		// placement; stamped no earlier than the request, so it is not
		// taken for a pending one again.
		stamp := now
		if t := spec.RescheduleTriggeredAt; t != nil && t.After(now.Time) {
			stamp = *t
		}
		next.LastScheduledTime = &stamp
	}
	if !apiequality.Semantic.DeepEqual(status, next) {
		out.status = next
	}
	return out
}

// reschedulePending tells whether spec.rescheduleTriggeredAt asks for a
// decision made after the last one.
func reschedulePending(spec *workv1alpha2.ResourceBindingSpec, status *workv1alpha2.ResourceBindingStatus) bool {
	t := spec.RescheduleTriggeredAt
	return t != nil && (status.LastScheduledTime == nil || t.After(status.LastScheduledTime.Time))
}

// sameClusters compares assignments regardless of order.
func sameClusters(a, b []workv1alpha2.TargetCluster) bool {
	if len(a) != len(b) {
		return false
	}
	m := make(map[string]int32, len(a))
	for _, tc := range a {
		m[tc.Name] = tc.Replicas
	}
	for _, tc := range b {
		r, ok := m[tc.Name]
		if !ok || r != tc.Replicas {
			return false
		}
	}
	return true
}

// scheduleType classifies an attempt for metrics.
func scheduleType(spec *workv1alpha2.ResourceBindingSpec) string {
	if len(spec.Clusters) == 0 {
		return metrics.ScheduleTypeFirst
	}
	var sum int32
	for _, tc := range spec.Clusters {
		sum += tc.Replicas
	}
	if spec.Replicas > 0 && sum != spec.Replicas && sum != spec.Replicas*int32(len(spec.Clusters)) {
		return metrics.ScheduleTypeScale
	}
	return metrics.ScheduleTypeReconcile
}
