package workload

import (
	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Health tells whether an object in a member cluster is healthy. A
// Deployment is healthy when its controller observed the latest
// generation, all replicas are updated and the updated ones are
// available (Karmada's rule). Kinds without a rule are healthy once they
// exist.
func Health(obj *unstructured.Unstructured) workv1alpha2.ResourceHealth {
	switch kindOf(obj) {
	case "apps/Deployment":
		var d appsv1.Deployment
		if err := decode(obj, &d); err != nil {
			return workv1alpha2.ResourceUnknown
		}
		want := int32(1)
		if d.Spec.Replicas != nil {
			want = *d.Spec.Replicas
		}
		s := d.Status
		if s.ObservedGeneration == d.Generation && s.UpdatedReplicas >= want && s.AvailableReplicas >= s.UpdatedReplicas {
			return workv1alpha2.ResourceHealthy
		}
		return workv1alpha2.ResourceUnhealthy
	}
	return workv1alpha2.ResourceHealthy
}
