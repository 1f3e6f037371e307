package workload

import (
	"encoding/json"
	"fmt"
	"strconv"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
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
	return encodeStatus(obj, v)
}

// encodeStatus is the reflected status v of obj as recorded.
func encodeStatus(obj *unstructured.Unstructured, v any) (*runtime.RawExtension, error) {
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode status of %s %s/%s: %w", obj.GetKind(), obj.GetNamespace(), obj.GetName(), err)
	}
	return &runtime.RawExtension{Raw: raw}, nil
}

// Observe is ReflectStatus and Health of one member object, with the
// object decoded once for the kinds that have both rules: what the two
// would give apart (a status that cannot be read is the error, and the
// health then Unknown).
func Observe(obj *unstructured.Unstructured) (*runtime.RawExtension, workv1alpha2.ResourceHealth, error) {
	observe := interpreters[kindOf(obj)].observe
	if observe == nil {
		status, err := ReflectStatus(obj)
		return status, Health(obj), err
	}
	v, health, err := observe(obj)
	if err != nil {
		return nil, health, err
	}
	status, err := encodeStatus(obj, v)
	return status, health, err
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
