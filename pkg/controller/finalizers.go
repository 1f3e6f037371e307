package controller

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// AddFinalizer adds f to obj's finalizers and reports whether it was missing.
func AddFinalizer(obj metav1.Object, f string) bool {
	if HasFinalizer(obj, f) {
		return false
	}
	obj.SetFinalizers(append(obj.GetFinalizers(), f))
	return true
}

// RemoveFinalizer removes f from obj's finalizers and reports whether it was there.
func RemoveFinalizer(obj metav1.Object, f string) bool {
	list := obj.GetFinalizers()
	i := slices.Index(list, f)
	if i < 0 {
		return false
	}
	obj.SetFinalizers(slices.Delete(slices.Clone(list), i, i+1))
	return true
}

// HasFinalizer tells whether obj carries f.
func HasFinalizer(obj metav1.Object, f string) bool {
	return slices.Contains(obj.GetFinalizers(), f)
}
