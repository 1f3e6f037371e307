package etcd

import (
	"testing"
	"unsafe"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/client-go/kubernetes/scheme"
)

// TestInternCodec: objects decoded apart share their labels' strings and
// keep their content; encoding is the codec's own; unstructured objects
// pass as they are.
func TestInternCodec(t *testing.T) {
	json, _ := runtime.SerializerInfoForMediaType(scheme.Codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	codec := scheme.Codecs.CodecForVersions(json.Serializer, json.Serializer, corev1.SchemeGroupVersion, corev1.SchemeGroupVersion)
	c := internCodec{codec}
	in := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "a", Namespace: "shop",
		Labels: map[string]string{"resourcebinding.karmada.io/permanent-id": "6b4f0c58-5d1e-4c1e-9a59-6a0c43c1a0b7"}}}
	data, err := runtime.Encode(c, in)
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := runtime.Encode(codec, in); string(plain) != string(data) {
		t.Errorf("encoded differently:\n%s\n%s", data, plain)
	}
	decode := func() *corev1.ConfigMap {
		obj, _, err := c.Decode(data, nil, nil)
		if err != nil {
			t.Fatal(err)
		}
		return obj.(*corev1.ConfigMap)
	}
	a, b := decode(), decode()
	if a.Labels["resourcebinding.karmada.io/permanent-id"] != in.Labels["resourcebinding.karmada.io/permanent-id"] || a.Namespace != "shop" {
		t.Fatalf("content changed: %+v", a.ObjectMeta)
	}
	la, lb := a.Labels["resourcebinding.karmada.io/permanent-id"], b.Labels["resourcebinding.karmada.io/permanent-id"]
	if unsafe.StringData(la) != unsafe.StringData(lb) || unsafe.StringData(a.Namespace) != unsafe.StringData(b.Namespace) {
		t.Error("two decoded objects keep equal strings twice")
	}
	u := &unstructured.Unstructured{}
	if _, _, err := c.Decode(data, nil, u); err != nil {
		t.Fatal(err)
	}
	if u.GetLabels()["resourcebinding.karmada.io/permanent-id"] != in.Labels["resourcebinding.karmada.io/permanent-id"] {
		t.Errorf("unstructured content changed: %v", u.Object)
	}
}
