package scale

import (
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// selectorString renders a label selector as the Scale's status.selector.
func selectorString(sel *metav1.LabelSelector) (string, error) {
	if sel == nil {
		return "", nil
	}
	s, err := metav1.LabelSelectorAsSelector(sel)
	if err != nil {
		return "", fmt.Errorf("invalid selector: %w", err)
	}
	return s.String(), nil
}

func replicas(p *int32) int32 {
	if p == nil {
		return 1
	}
	return *p
}

// Deployment reads and writes a Deployment's replicas.
var Deployment = Accessor{
	Get: func(obj runtime.Object) (int32, int32, string, error) {
		d := obj.(*appsv1.Deployment)
		sel, err := selectorString(d.Spec.Selector)
		return replicas(d.Spec.Replicas), d.Status.Replicas, sel, err
	},
	Set: func(obj runtime.Object, n int32) { obj.(*appsv1.Deployment).Spec.Replicas = &n },
}

// StatefulSet reads and writes a StatefulSet's replicas.
var StatefulSet = Accessor{
	Get: func(obj runtime.Object) (int32, int32, string, error) {
		s := obj.(*appsv1.StatefulSet)
		sel, err := selectorString(s.Spec.Selector)
		return replicas(s.Spec.Replicas), s.Status.Replicas, sel, err
	},
	Set: func(obj runtime.Object, n int32) { obj.(*appsv1.StatefulSet).Spec.Replicas = &n },
}

// ReplicaSet reads and writes a ReplicaSet's replicas.
var ReplicaSet = Accessor{
	Get: func(obj runtime.Object) (int32, int32, string, error) {
		s := obj.(*appsv1.ReplicaSet)
		sel, err := selectorString(s.Spec.Selector)
		return replicas(s.Spec.Replicas), s.Status.Replicas, sel, err
	},
	Set: func(obj runtime.Object, n int32) { obj.(*appsv1.ReplicaSet).Spec.Replicas = &n },
}

// ReplicationController reads and writes a ReplicationController's
// replicas; its selector is a label map.
var ReplicationController = Accessor{
	Get: func(obj runtime.Object) (int32, int32, string, error) {
		rc := obj.(*corev1.ReplicationController)
		return replicas(rc.Spec.Replicas), rc.Status.Replicas, labels.SelectorFromSet(rc.Spec.Selector).String(), nil
	},
	Set: func(obj runtime.Object, n int32) { obj.(*corev1.ReplicationController).Spec.Replicas = &n },
}
