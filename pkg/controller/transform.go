package controller

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/intern"
)

// SlimMetadata is the informer transform of mco's caches: it removes
// metadata.managedFields from every object before it is cached, and keeps
// the strings of its labels, annotations, namespace, finalizers and owners'
// kinds once however many objects hold them (package intern). No
// controller reads managedFields, and they are often the largest part of
// an object's metadata. Objects that are not Kubernetes objects (such as
// tombstones) pass through unchanged. An update built from a cached object
// leaves managedFields unset, which the server reads as "keep them as they
// are".
func SlimMetadata(obj interface{}) (interface{}, error) {
	if _, tomb := obj.(cache.DeletedFinalStateUnknown); tomb {
		return obj, nil
	}
	if acc, err := meta.Accessor(obj); err == nil {
		acc.SetManagedFields(nil)
		intern.Metadata(acc)
	}
	return obj, nil
}

var _ cache.TransformFunc = SlimMetadata
