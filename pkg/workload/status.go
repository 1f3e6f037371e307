package workload

import (
	"encoding/json"
	"fmt"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// DeploymentStatus is what mco collects of a Deployment in a member
// cluster: Karmada's fields (counters, generations and the template
// generation the member object was rendered from) plus its conditions,
// which mco aggregates too.
type DeploymentStatus struct {
	Replicas                   int32                        `json:"replicas,omitempty"`
	UpdatedReplicas            int32                        `json:"updatedReplicas,omitempty"`
	ReadyReplicas              int32                        `json:"readyReplicas,omitempty"`
	AvailableReplicas          int32                        `json:"availableReplicas,omitempty"`
	UnavailableReplicas        int32                        `json:"unavailableReplicas,omitempty"`
	ObservedGeneration         int64                        `json:"observedGeneration,omitempty"`
	Generation                 int64                        `json:"generation,omitempty"`
	ResourceTemplateGeneration int64                        `json:"resourceTemplateGeneration,omitempty"`
	Conditions                 []appsv1.DeploymentCondition `json:"conditions,omitempty"`
}

// ReflectStatus returns the status of an object in a member cluster as mco
// records it in Work.status.manifestStatuses: for Deployments the fields of
// DeploymentStatus, for other kinds the whole status (nil when none).
func ReflectStatus(obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	var v any
	switch kindOf(obj) {
	case "apps/Deployment":
		var d appsv1.Deployment
		if err := decode(obj, &d); err != nil {
			return nil, err
		}
		v = DeploymentStatus{
			Replicas: d.Status.Replicas, UpdatedReplicas: d.Status.UpdatedReplicas,
			ReadyReplicas: d.Status.ReadyReplicas, AvailableReplicas: d.Status.AvailableReplicas,
			UnavailableReplicas: d.Status.UnavailableReplicas, ObservedGeneration: d.Status.ObservedGeneration,
			Generation: d.Generation, ResourceTemplateGeneration: templateGeneration(obj),
			Conditions: d.Status.Conditions,
		}
	default:
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
