package cluster

import (
	"time"

	coordinationv1 "k8s.io/api/coordination/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/controllers/shared"
)

// ReasonClusterStatusUnknown is Ready's reason when the status stopped
// being renewed.
const ReasonClusterStatusUnknown = "ClusterStatusUnknown"

// readyTaints are the NoSchedule taints that follow Ready: not-ready for
// False, unreachable for Unknown.
var readyTaints = map[metav1.ConditionStatus]string{
	metav1.ConditionFalse:   clusterv1alpha1.TaintClusterNotReady,
	metav1.ConditionUnknown: clusterv1alpha1.TaintClusterUnreachable,
}

// withReadyTaints returns the Cluster's taints with the NoSchedule taint
// Ready calls for and without the other, and whether that changed them.
// Other taints, NoExecute ones of the same keys among them, stay.
func withReadyTaints(taints []corev1.Taint, ready *metav1.Condition, now time.Time) ([]corev1.Taint, bool) {
	want := ""
	if ready != nil {
		want = readyTaints[ready.Status]
	}
	var out []corev1.Taint
	changed, has := false, false
	for _, t := range taints {
		managed := t.Effect == corev1.TaintEffectNoSchedule &&
			(t.Key == clusterv1alpha1.TaintClusterNotReady || t.Key == clusterv1alpha1.TaintClusterUnreachable)
		switch {
		case managed && t.Key == want && !has:
			has = true
		case managed:
			changed = true
			continue
		}
		out = append(out, t)
	}
	if want != "" && !has {
		added := metav1.NewTime(now)
		out = append(out, corev1.Taint{Key: want, Effect: corev1.TaintEffectNoSchedule, TimeAdded: &added})
		changed = true
	}
	return out, changed
}

// statusStale reports whether the Cluster's status has not been renewed
// within the grace period since the latest of its Lease's renewal, its
// creation and this process's start. Within the startup grace period of
// the Cluster's creation or of the process start, the longer grace applies.
func statusStale(c *clusterv1alpha1.Cluster, lease *coordinationv1.Lease, started, now time.Time, h shared.ClusterHealth) bool {
	last := c.CreationTimestamp.Time
	if lease != nil && lease.Spec.RenewTime != nil && lease.Spec.RenewTime.After(last) {
		last = lease.Spec.RenewTime.Time
	}
	if started.After(last) {
		last = started
	}
	grace := h.MonitorGracePeriod
	if now.Sub(c.CreationTimestamp.Time) < h.StartupGracePeriod || now.Sub(started) < h.StartupGracePeriod {
		grace = max(grace, h.StartupGracePeriod)
	}
	return now.Sub(last) > grace
}

// unknownCondition is Ready when the status stopped being renewed.
func unknownCondition(generation int64) metav1.Condition {
	return metav1.Condition{Type: clusterv1alpha1.ClusterConditionReady, Status: metav1.ConditionUnknown,
		Reason: ReasonClusterStatusUnknown, Message: "cluster status controller stopped posting cluster status",
		ObservedGeneration: generation}
}

// needsUnknown reports whether Ready must be set to Unknown now.
func needsUnknown(c *clusterv1alpha1.Cluster, lease *coordinationv1.Lease, started, now time.Time, h shared.ClusterHealth) bool {
	if c.DeletionTimestamp != nil || !statusStale(c, lease, started, now, h) {
		return false
	}
	ready := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady)
	return ready == nil || ready.Status != metav1.ConditionUnknown
}
