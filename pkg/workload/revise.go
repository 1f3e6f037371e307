package workload

import (
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// ReviseReplicas sets the replica count of a replicated workload to a
// cluster's share: spec.replicas of Deployments, StatefulSets and
// ReplicaSets, spec.parallelism of Jobs. Other kinds are left alone.
func ReviseReplicas(obj *unstructured.Unstructured, replicas int32) error {
	field := replicaField(obj)
	if field == nil {
		return nil
	}
	if err := unstructured.SetNestedField(obj.Object, int64(replicas), field...); err != nil {
		return fmt.Errorf("set %v of %s %s/%s: %w", field, obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	return nil
}

// replicaField is the path of the replica count, nil for kinds without one.
func replicaField(obj *unstructured.Unstructured) []string {
	switch kindOf(obj) {
	case "apps/Deployment", "apps/StatefulSet", "apps/ReplicaSet":
		return []string{"spec", "replicas"}
	case "batch/Job":
		return []string{"spec", "parallelism"}
	}
	return nil
}

// kindOf is "group/Kind" ("/ConfigMap" for the core group).
func kindOf(obj *unstructured.Unstructured) string {
	gvk := obj.GroupVersionKind()
	return gvk.Group + "/" + gvk.Kind
}
