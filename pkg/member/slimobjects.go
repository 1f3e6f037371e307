package member

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
