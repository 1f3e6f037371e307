package member

import (
	"encoding/json"
	"fmt"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/intern"
)

// Copy is a member's object as the informers of the objects mco applied
// keep it: the metadata their handlers read on every event, typed, and
// the rest of the object as JSON (as the member sent it, or encoded from
// its Go type for kinds watched as protobuf; without managedFields and the
// left-out fields), decoded only when a controller reads it. Labels and
// annotations are kept once, beside the typed metadata as intern.Pairs
// (the JSON has none; Object puts them back; GetLabels and GetAnnotations
// give new maps), their strings shared with every other object that holds
// them: a copy's annotations are most of its metadata (mco's own on every
// applied object), and as Go maps they were most of a copy's memory.
// Kept as unstructured maps, such copies were the largest live holder of
// mco-controller-manager's memory (README: bench-scale's figures).
type Copy struct {
	metav1.TypeMeta
	metav1.ObjectMeta   // Labels and Annotations stay nil: see labels, annotations
	labels, annotations intern.Pairs
	raw                 []byte // immutable once made: copies share it
}

var (
	_ runtime.Object = &Copy{}
	_ metav1.Object  = &Copy{}
)

// DeepCopyObject copies the metadata; the JSON is shared, never changed.
func (c *Copy) DeepCopyObject() runtime.Object {
	out := &Copy{TypeMeta: c.TypeMeta, labels: c.labels, annotations: c.annotations, raw: c.raw}
	c.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	return out
}

// The label and annotation accessors of metav1.Object read and write the
// pairs; a map they give is the caller's own.

func (c *Copy) GetLabels() map[string]string       { return c.labels.Map() }
func (c *Copy) SetLabels(m map[string]string)      { c.labels = intern.PairsOf(m) }
func (c *Copy) GetAnnotations() map[string]string  { return c.annotations.Map() }
func (c *Copy) SetAnnotations(m map[string]string) { c.annotations = intern.PairsOf(m) }

// GetObjectMeta is the copy itself: the embedded ObjectMeta lacks the
// labels and annotations.
func (c *Copy) GetObjectMeta() metav1.Object { return c }

// Object decodes the copy into an object of the caller's own.
func (c *Copy) Object() (*unstructured.Unstructured, error) {
	u := &unstructured.Unstructured{}
	if err := u.UnmarshalJSON(c.raw); err != nil {
		return nil, fmt.Errorf("decode %s %s/%s: %w", c.Kind, c.Namespace, c.Name, err)
	}
	if l := c.GetLabels(); l != nil {
		u.SetLabels(l)
	}
	if a := c.GetAnnotations(); a != nil {
		u.SetAnnotations(a)
	}
	return u, nil
}

// newCopy keeps u, which it no longer needs, as a Copy.
func newCopy(u *unstructured.Unstructured) (*Copy, error) {
	c := copyOf(u, u.GetAPIVersion(), u.GetKind())
	if m, ok := u.Object["metadata"].(map[string]any); ok {
		delete(m, "labels")
		delete(m, "annotations")
	}
	raw, err := json.Marshal(u.Object)
	if err != nil {
		return nil, fmt.Errorf("encode %s %s/%s: %w", u.GetKind(), u.GetNamespace(), u.GetName(), err)
	}
	c.raw = raw
	return c, nil
}

// copyOf makes the Copy of an object with metadata m, its JSON yet to be
// set (without labels and annotations).
func copyOf(m metav1.Object, apiVersion, kind string) *Copy {
	c := &Copy{}
	c.APIVersion, c.Kind = apiVersion, kind
	c.Namespace, c.Name, c.UID = m.GetNamespace(), m.GetName(), m.GetUID()
	c.ResourceVersion, c.Generation = m.GetResourceVersion(), m.GetGeneration()
	c.CreationTimestamp, c.DeletionTimestamp = m.GetCreationTimestamp(), m.GetDeletionTimestamp()
	c.OwnerReferences, c.Finalizers = m.GetOwnerReferences(), m.GetFinalizers()
	// m is freshly decoded (an informer's transform): its lists may be
	// interned in place. Labels and annotations are set after, as pairs
	// of interned strings.
	intern.Metadata(c)
	c.labels, c.annotations = intern.PairsOf(m.GetLabels()), intern.PairsOf(m.GetAnnotations())
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
