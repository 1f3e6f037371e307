package slimwire

import (
	"reflect"
	"strconv"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var (
	objectMetaType = reflect.TypeOf(metav1.ObjectMeta{})
	listMetaType   = reflect.TypeOf(metav1.ListMeta{})
)

// SchemeShapes answers from the Go types scheme registers for each kind
// (remembered per kind); a kind scheme does not know is Other.
func SchemeShapes(scheme *runtime.Scheme) ShapeOf {
	var mu sync.RWMutex
	known := map[string]map[string]Shape{} // apiVersion → kind → Shape
	return func(apiVersion, kind []byte) Shape {
		mu.RLock()
		s, ok := known[string(apiVersion)][string(kind)]
		mu.RUnlock()
		if ok {
			return s
		}
		shape := Other
		if gv, err := schema.ParseGroupVersion(string(apiVersion)); err == nil {
			if t, ok := scheme.AllKnownTypes()[gv.WithKind(string(kind))]; ok {
				shape = shapeOfType(t)
			}
		}
		mu.Lock()
		defer mu.Unlock()
		if known[string(apiVersion)] == nil {
			known[string(apiVersion)] = map[string]Shape{}
		}
		known[string(apiVersion)][string(kind)] = shape
		return shape
	}
}

// shapeOfType reads a kind's Shape off its Go struct's protobuf tags.
func shapeOfType(t reflect.Type) Shape {
	if t.Kind() != reflect.Struct {
		return Other
	}
	if fieldAt(t, "ObjectMeta", objectMetaType, 1) {
		return Object
	}
	items, ok := t.FieldByName("Items")
	if ok && fieldAt(t, "ListMeta", listMetaType, 1) && protobufNumber(items.Tag) == listItems &&
		items.Type.Kind() == reflect.Slice && items.Type.Elem().Kind() == reflect.Struct &&
		fieldAt(items.Type.Elem(), "ObjectMeta", objectMetaType, 1) {
		return List
	}
	return Other
}

// fieldAt tells whether struct t has the field name of type want at
// protobuf field number num.
func fieldAt(t reflect.Type, name string, want reflect.Type, num int) bool {
	f, ok := t.FieldByName(name)
	return ok && f.Type == want && protobufNumber(f.Tag) == num
}

// protobufNumber is the field number in a `protobuf:"bytes,N,..."` tag, 0
// when there is none.
func protobufNumber(tag reflect.StructTag) int {
	parts := strings.Split(tag.Get("protobuf"), ",")
	if len(parts) < 2 {
		return 0
	}
	n, err := strconv.Atoi(parts[1])
	if err != nil {
		return 0
	}
	return n
}
