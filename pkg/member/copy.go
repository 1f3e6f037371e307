package member

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"
)

// Copy is a member's object as the informers of the objects mco applied
// keep it: the metadata their handlers read on every event, typed, and
// the object itself as JSON (as the member sent it, or encoded from its
// Go type for kinds watched as protobuf; without managedFields and the
// left-out fields), decoded only when a controller reads it. Kept
// as unstructured maps, 40,000 such copies were the largest live holder
// of mco-controller-manager's memory (README: bench-scale's figures).
type Copy struct {
	metav1.TypeMeta
	metav1.ObjectMeta
	raw []byte // immutable once made: copies share it
}

var (
	_ runtime.Object = &Copy{}
	_ metav1.Object  = &Copy{}
)

// DeepCopyObject copies the metadata; the JSON is shared, never changed.
func (c *Copy) DeepCopyObject() runtime.Object {
	out := &Copy{TypeMeta: c.TypeMeta, raw: c.raw}
	c.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}

// Object decodes the copy into an object of the caller's own.
func (c *Copy) Object() (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(c.raw); err != nil {
		return nil, fmt.Errorf("decode %s %s/%s: %w", c.Kind, c.Namespace, c.Name, err)
	}
	return u, nil
}

// newCopy keeps u, which it no longer needs, as a Copy.
func newCopy(u *unstructured.Unstructured) (*Copy, error) {
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return nil, fmt.Errorf("encode %s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	return copyOf(u, u.GetAPIVersion(), u.GetKind(), raw), nil
}

// copyOf makes the Copy of an object with metadata m and JSON raw.
func copyOf(m metav1.Object, apiVersion, kind string, raw []byte) *Copy {
	c := &Copy{raw: raw}
	c.APIVersion, c.Kind = apiVersion, kind
	c.Namespace, c.Name, c.UID = m.GetNamespace(), m.GetName(), m.GetUID()
	c.ResourceVersion, c.Generation = m.GetResourceVersion(), m.GetGeneration()
	c.CreationTimestamp, c.DeletionTimestamp = m.GetCreationTimestamp(), m.GetDeletionTimestamp()
	c.Labels, c.Annotations = m.GetLabels(), m.GetAnnotations()
	c.OwnerReferences, c.Finalizers = m.GetOwnerReferences(), m.GetFinalizers()
	return c
}

// AsObject returns what a member informer of applied objects holds (a
// Copy, an unstructured object, or either inside a deletion tombstone) as
// an unstructured object the caller may change.
func AsObject(item any) (*unstructured.Unstructured, error) {
	switch o := item.(type) {
	case *Copy:
		return o.Object()
	case *unstructured.Unstructured:
		return o.DeepCopy(), nil
	case cache.DeletedFinalStateUnknown:
		return AsObject(o.Obj)
	}
	return nil, fmt.Errorf("not a member object: %T", item)
}

// MetaOf returns the metadata of what a member informer of applied objects
// holds or hands its handlers (deletion tombstones included); false for
// anything else.
func MetaOf(item any) (metav1.Object, bool) {
	if t, ok := item.(cache.DeletedFinalStateUnknown); ok {
		item = t.Obj
	}
	m, err := meta.Accessor(item)
	return m, err == nil
}
