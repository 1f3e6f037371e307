package member

import (
	"encoding/json"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"
)

// leftOut lists, by kind, the fields that the member informers of the
// objects mco applied do not cache: what a member's copy is mostly made
// of, and what none of mco's own rules reads (package workload reads a
// workload's status, replicas and update strategy, never its pod
// template; a ConfigMap's or Secret's payload is never read at all). At
// 10,000 Deployments in three members these fields were most of
// mco-controller-manager's memory. A kind customized by a script or a
// webhook may read anything: its objects are read whole from the member
// (see Clients.Whole).
var leftOut = map[schema.GroupKind][][]string{
	{Group: "apps", Kind: "Deployment"}:  {{"spec", "template"}},
	{Group: "apps", Kind: "ReplicaSet"}:  {{"spec", "template"}},
	{Group: "apps", Kind: "DaemonSet"}:   {{"spec", "template"}},
	{Group: "apps", Kind: "StatefulSet"}: {{"spec", "template"}, {"spec", "volumeClaimTemplates"}},
	{Group: "batch", Kind: "Job"}:        {{"spec", "template"}},
	{Group: "batch", Kind: "CronJob"}:    {{"spec", "jobTemplate"}},
	{Kind: "ConfigMap"}:                  {{"data"}, {"binaryData"}},
	{Kind: "Secret"}:                     {{"data"}, {"stringData"}},
}

// Slimmed tells whether the member informers cache objects of kind gk
// without some of their fields.
func Slimmed(gk schema.GroupKind) bool {
	_, ok := leftOut[gk]
	return ok
}

// slimApplied is the transform of the member informers of applied
// objects: managedFields and the kind's left-out fields are dropped, and
// what is left is kept as a Copy.
func slimApplied(obj interface{}) (interface{}, error) {
	u, ok := obj.(*unstructured.Unstructured)
	if !ok {
		return obj, nil
	}
	for _, path := range leftOut[u.GroupVersionKind().GroupKind()] {
		unstructured.RemoveNestedField(u.Object, path...)
	}
	u.SetManagedFields(nil)
	return newCopy(u)
}

var _ cache.TransformFunc = slimApplied

// slimAppliedTyped is slimApplied for an object of a built-in kind as its Go
// type (a protobuf informer's): without managedFields and with the
// kind's left-out fields emptied, it is kept as a Copy of its JSON,
// encoded straight from the Go type. Emptied fields may stay in the JSON
// as empty values ("template": {"metadata": {}, "spec": {...}}), which
// no rule of mco reads.
func slimAppliedTyped(gvk schema.GroupVersionKind) func(runtime.Object) (any, error) {
	apiVersion := gvk.GroupVersion().String()
	return func(obj runtime.Object) (any, error) {
		m, err := meta.Accessor(obj)
		if err != nil {
			return nil, fmt.Errorf("applied %s: %w", gvk.Kind, err)
		}
		m.SetManagedFields(nil)
		leaveOut(obj)
		obj.GetObjectKind().SetGroupVersionKind(gvk)
		c := copyOf(m, apiVersion, gvk.Kind)
		m.SetLabels(nil) // kept in c's metadata only
		m.SetAnnotations(nil)
		raw, err := json.Marshal(obj)
		if err != nil {
			return nil, fmt.Errorf("encode %s %s/%s: %w", gvk.Kind, m.GetNamespace(), m.GetName(), err)
		}
		c.raw = raw
		return c, nil
	}
}

// leaveOut empties, in an object of a built-in kind, the fields leftOut
// names for that kind.
func leaveOut(obj runtime.Object) {
	switch o := obj.(type) {
	case *appsv1.Deployment:
		o.Spec.Template = corev1.PodTemplateSpec{}
	case *appsv1.ReplicaSet:
		o.Spec.Template = corev1.PodTemplateSpec{}
	case *appsv1.DaemonSet:
		o.Spec.Template = corev1.PodTemplateSpec{}
	case *appsv1.StatefulSet:
		o.Spec.Template, o.Spec.VolumeClaimTemplates = corev1.PodTemplateSpec{}, nil
	case *batchv1.Job:
		o.Spec.Template = corev1.PodTemplateSpec{}
	case *batchv1.CronJob:
		o.Spec.JobTemplate = batchv1.JobTemplateSpec{}
	case *corev1.ConfigMap:
		o.Data, o.BinaryData = nil, nil
	case *corev1.Secret:
		o.Data, o.StringData = nil, nil
	}
}
