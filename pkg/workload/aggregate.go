package workload

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// AggregateStatus computes the status of a template on mco from what its
// member clusters report. ok is false for kinds whose status mco does not
// aggregate; the template's status is then left alone. Aggregated kinds are
// apps/v1 Deployment, StatefulSet, DaemonSet and ReplicaSet, batch/v1 Job
// and CronJob, v1 Service, PersistentVolumeClaim, PersistentVolume and Pod,
// networking.k8s.io/v1 Ingress, policy/v1 PodDisruptionBudget and
// autoscaling/v2 HorizontalPodAutoscaler; see the file of each.
func AggregateStatus(template *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem, now metav1.Time) (status map[string]any, ok bool, err error) {
	agg := interpreters[kindOf(template)].aggregate
	if agg == nil {
		return nil, false, nil
	}
	status, err = agg(template, items, now)
	if err != nil {
		return nil, false, err
	}
	return status, true, nil
}
