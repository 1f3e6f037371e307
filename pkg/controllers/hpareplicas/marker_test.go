package hpareplicas

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/mco-org/mco/pkg/template"
)

func TestIndexByTarget(t *testing.T) {
	hpa := func(ref map[string]any) *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "autoscaling/v2", "kind": "HorizontalPodAutoscaler",
			"metadata": map[string]any{"name": "h", "namespace": "shop"}, "spec": map[string]any{"scaleTargetRef": ref}}}
	}
	web := template.Key{GVK: schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}, Namespace: "shop", Name: "web"}
	tests := []struct {
		name string
		obj  any
		want []string
	}{
		{"a Deployment target", hpa(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "name": "web"}), []string{targetIndexKey(web)}},
		{"another version of the same kind indexes alike", hpa(map[string]any{"apiVersion": "apps/v1beta2", "kind": "Deployment", "name": "web"}), []string{targetIndexKey(web)}},
		{"no name, no key", hpa(map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}), nil},
		{"a bad apiVersion, no key", hpa(map[string]any{"apiVersion": "a/b/c", "kind": "Deployment", "name": "web"}), nil},
		{"not an object, no key", "x", nil},
	}
	for _, tt := range tests {
		got, err := indexByTarget(tt.obj)
		if err != nil || !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, %v; want %v", tt.name, got, err, tt.want)
		}
	}
}

func TestMarkMayChange(t *testing.T) {
	obj := func(gen int64, labels map[string]string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{}}
		u.SetGeneration(gen)
		u.SetLabels(labels)
		return u
	}
	tests := []struct {
		name     string
		old, new any
		want     bool
	}{
		{"a status write changes neither", obj(1, map[string]string{"app": "web"}), obj(1, map[string]string{"app": "web"}), false},
		{"a spec change bumps the generation", obj(1, nil), obj(2, nil), true},
		{"a label taken off", obj(1, map[string]string{"a": "b"}), obj(1, nil), true},
		{"a label changed", obj(1, map[string]string{"a": "b"}), obj(1, map[string]string{"a": "c"}), true},
		{"something else than an object", "x", obj(1, nil), true},
	}
	for _, tt := range tests {
		if got := markMayChange(tt.old, tt.new); got != tt.want {
			t.Errorf("%s: %v, want %v", tt.name, got, tt.want)
		}
	}
}
