package workload

import (
	batchv1 "k8s.io/api/batch/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// aggregateCronJob lists the Jobs every member runs now (in cluster order)
// and takes the latest schedule and success times any member reports, as
// Karmada does.
func aggregateCronJob(_ *batchv1.CronJob, members []member[batchv1.CronJobStatus], _ metav1.Time) batchv1.CronJobStatus {
	var out batchv1.CronJobStatus
	for _, m := range members {
		if m.status == nil {
			continue
		}
		out.Active = append(out.Active, m.status.Active...)
		out.LastScheduleTime = later(out.LastScheduleTime, m.status.LastScheduleTime)
		out.LastSuccessfulTime = later(out.LastSuccessfulTime, m.status.LastSuccessfulTime)
	}
	return out
}

// later returns the later of two optional times.
func later(a, b *metav1.Time) *metav1.Time {
	if a == nil || (b != nil && a.Before(b)) {
		return b
	}
	return a
}
