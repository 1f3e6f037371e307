package etcd

import (
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/intern"
)

// internCodec decodes as its codec does, then replaces the strings of
// each typed object's metadata by their canonical copies (package intern):
// a watch cache keeps every object it decodes, and across thousands of
// them labels, annotations, namespaces, finalizers and managedFields'
// managers mostly repeat (their field sets are interned by apimachinery
// itself under the fieldsv1string tag). Objects of custom
// resources (unstructured) are left as they are: their metadata is maps
// that interning would rebuild. Encoding is the codec's own.
type internCodec struct{ runtime.Codec }

func (c internCodec) Decode(data []byte, defaults *schema.GroupVersionKind, into runtime.Object) (runtime.Object, *schema.GroupVersionKind, error) {
	obj, gvk, err := c.Codec.Decode(data, defaults, into)
	if err == nil {
		internMetadata(obj)
	}
	return obj, gvk, err
}

func internMetadata(obj runtime.Object) {
	if _, unstructured := obj.(runtime.Unstructured); unstructured {
		return
	}
	if acc, err := meta.Accessor(obj); err == nil {
		intern.Metadata(acc)
	}
}
