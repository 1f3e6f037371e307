package workload

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Health tells whether an object in a member cluster is healthy, following
// Karmada's rules for Deployments, StatefulSets, DaemonSets, ReplicaSets,
// Jobs, Services, Ingresses, Pods and PodDisruptionBudgets (see the file
// of each). An object of an understood kind
// that cannot be decoded has unknown health. Kinds without a rule are
// healthy once they exist.
func Health(obj *unstructured.Unstructured) workv1alpha2.ResourceHealth {
	if health := interpreters[kindOf(obj)].health; health != nil {
		return health(obj)
	}
	return workv1alpha2.ResourceHealthy
}
