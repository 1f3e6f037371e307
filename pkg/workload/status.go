package workload

import (
	"encoding/json"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// ReflectStatus returns the status of an object in a member cluster as mco
// records it in Work.status.manifestStatuses: for interpreted kinds the
// fields of the kind's report (DeploymentStatus, StatefulSetStatus,
// DaemonSetStatus, ReplicaSetStatus, JobStatus; a Service's load balancer
// status), for other kinds the whole status (nil when none).
func ReflectStatus(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	var v any
	if reflect := interpreters[kindOf(obj)].reflect; reflect != nil {
		var err error
		if v, err = reflect(obj); err != nil {
			return nil, err
		}
	} else {
		status, ok := obj.Object["status"]
		if !ok {
			return nil, nil
		}
		v = status
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode status of %s %s/%s: %w", obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	return &runtime.RawExtension{Raw: raw}, nil
}

// templateGeneration reads the template generation mco stamped on a
// manifest (0 when absent).
func templateGeneration(obj *unstructured.Unstructured) int64 {
	g, err := strconv.ParseInt(obj.GetAnnotations()[workv1alpha1.ResourceTemplateGenerationAnnotation], 10, 64)
	if err != nil {
		return 0
	}
	return g
}
