package template

import (
	"testing"

	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	"k8s.io/client-go/tools/cache"
)

func crd(group, kind, plural string, scope apiextensionsv1.ResourceScope, established bool, versions ...string) *apiextensionsv1.CustomResourceDefinition {
	c := &apiextensionsv1.CustomResourceDefinition{
		ObjectMeta: metav1.ObjectMeta{Name: plural + "." + group},
		Spec: apiextensionsv1.CustomResourceDefinitionSpec{Group: group, Scope: scope,
			Names: apiextensionsv1.CustomResourceDefinitionNames{Kind: kind, Plural: plural}},
	}
	for _, v := range versions {
		c.Spec.Versions = append(c.Spec.Versions, apiextensionsv1.CustomResourceDefinitionVersion{Name: v, Served: v != "v0"})
	}
	status := apiextensionsv1.ConditionFalse
	if established {
		status = apiextensionsv1.ConditionTrue
	}
	c.Status.Conditions = []apiextensionsv1.CustomResourceDefinitionCondition{{Type: apiextensionsv1.Established, Status: status}}
	return c
}

func TestCRDKind(t *testing.T) {
	t.Parallel()
	widgets := func(v string) Resource {
		return Resource{GVR: schema.GroupVersionResource{Group: "example.com", Version: v, Resource: "widgets"},
			GVK: schema.GroupVersionKind{Group: "example.com", Version: v, Kind: "Widget"}, Namespaced: true}
	}
	cases := []struct {
		name string
		crd  *apiextensionsv1.CustomResourceDefinition
		want Resource
		ok   bool
	}{
		{"An established CRD defines a template kind.", crd("example.com", "Widget", "widgets", apiextensionsv1.NamespaceScoped, true, "v1"), widgets("v1"), true},
		{"Its highest served version is the one watched.", crd("example.com", "Widget", "widgets", apiextensionsv1.NamespaceScoped, true, "v1beta1", "v1", "v1alpha1"), widgets("v1"), true},
		{"A version not served is not.", crd("example.com", "Widget", "widgets", apiextensionsv1.NamespaceScoped, true, "v0"), Resource{}, false},
		{"A CRD not established yet defines none.", crd("example.com", "Widget", "widgets", apiextensionsv1.NamespaceScoped, false, "v1"), Resource{}, false},
		{"A cluster-scoped kind.", crd("example.com", "Gadget", "gadgets", apiextensionsv1.ClusterScoped, true, "v2"),
			Resource{GVR: schema.GroupVersionResource{Group: "example.com", Version: "v2", Resource: "gadgets"},
				GVK: schema.GroupVersionKind{Group: "example.com", Version: "v2", Kind: "Gadget"}}, true},
	}
	for _, tc := range cases {
		got, ok := crdKind(tc.crd)
		if ok != tc.ok || got != tc.want {
			t.Errorf("%s: %+v %v, want %+v %v", tc.name, got, ok, tc.want, tc.ok)
		}
	}
}

// TestKindsComeAndGo: a kind put later reaches every watcher registered
// before; a kind moved to another version is watched there only; a
// removed kind's templates are NotFound.
func TestKindsComeAndGo(t *testing.T) {
	t.Parallel()
	gvr := func(v string) schema.GroupVersionResource {
		return schema.GroupVersionResource{Group: "example.com", Version: v, Resource: "widgets"}
	}
	client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(),
		map[schema.GroupVersionResource]string{gvr("v1"): "WidgetList", gvr("v2"): "WidgetList"})
	r := New(client, 0)
	var seen []schema.GroupVersionKind
	if err := r.OnKind(func(x Resource, _ cache.SharedIndexInformer) error { seen = append(seen, x.GVK); return nil }); err != nil {
		t.Fatal(err)
	}
	v1 := Resource{GVR: gvr("v1"), GVK: schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}, Namespaced: true}
	v2 := Resource{GVR: gvr("v2"), GVK: schema.GroupVersionKind{Group: "example.com", Version: "v2", Kind: "Widget"}, Namespaced: true}
	for _, step := range []struct {
		put     Resource
		changed bool
	}{{v1, true}, {v1, false}, {v2, true}} {
		changed, err := r.Put(step.put)
		if err != nil || changed != step.changed {
			t.Fatalf("Put %s: changed %v (%v), want %v", step.put.GVK, changed, err, step.changed)
		}
	}
	if len(seen) != 2 || seen[0] != v1.GVK || seen[1] != v2.GVK {
		t.Errorf("watchers saw %v, want v1 then v2", seen)
	}
	if kinds := r.Kinds(); len(kinds) != 1 || kinds[0] != v2 {
		t.Errorf("kinds %v, want only v2", kinds)
	}
	if !r.Remove(v2.GVK.GroupKind()) {
		t.Fatal("Remove found nothing")
	}
	if _, err := r.Get(Key{GVK: v2.GVK, Namespace: "default", Name: "w"}); !apierrors.IsNotFound(err) {
		t.Errorf("Get of a removed kind: %v, want NotFound", err)
	}
	if _, err := r.Get(Key{GVK: schema.GroupVersionKind{Group: "other.com", Version: "v1", Kind: "Thing"}, Name: "t"}); err == nil || apierrors.IsNotFound(err) {
		t.Errorf("Get of a kind never served: %v, want an error that is not NotFound", err)
	}
}
