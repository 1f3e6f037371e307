package controller

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/client-go/tools/cache"
)

// DropManagedFields is an informer transform that removes
// metadata.managedFields from every object before it is cached. No
// controller reads them, and they are often the largest part of an object's
// metadata, so caches of many objects hold a good deal less. Objects that are
// not Kubernetes objects (such as tombstones) pass through unchanged. An
// update built from a cached object leaves managedFields unset, which the
// server reads as "keep them as they are".
func DropManagedFields(obj interface{}) (interface{}, error) {
	if _, tomb := obj.(cache.DeletedFinalStateUnknown); tomb {
		return obj, nil
	}
	if acc, err := meta.Accessor(obj); err == nil {
		acc.SetManagedFields(nil)
	}
	return obj, nil
}

var _ cache.TransformFunc = DropManagedFields
