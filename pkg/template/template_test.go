package template

import (
	"context"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	dynamicfake "k8s.io/client-go/dynamic/fake"
)

func deployment(rv, image string) *unstructured.Unstructured {
	u := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default", "uid": "u1", "resourceVersion": rv},
		"spec":     map[string]any{"image": image},
	}}
	return u
}

func TestGetFresh(t *testing.T) {
	t.Parallel()
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	gvk := schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
	key := Key{GVK: gvk, Namespace: "default", Name: "web"}
	cases := []struct {
		name       string
		cached     *unstructured.Unstructured // nil: not in the cache
		statusFrom string                     // the cached version is a status write on top of this one
		want       string                     // the binding's resourceVersion
		wantImage  string
	}{
		{name: "The cache holds the binding's version: it is used.", cached: deployment("5", "cached"), want: "5", wantImage: "cached"},
		{name: "The binding names no version: the cache's is used.", cached: deployment("5", "cached"), want: "", wantImage: "cached"},
		{name: "The cache lags behind the binding: the server's is read.", cached: deployment("4", "cached"), want: "5", wantImage: "live"},
		{name: "The cache has not seen the template yet: the server's is read.", want: "5", wantImage: "live"},
		{name: "The cache holds mco's status write on top of the binding's version: it is used.",
			cached: deployment("6", "cached"), statusFrom: "5", want: "5", wantImage: "cached"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			scheme := runtime.NewScheme()
			client := dynamicfake.NewSimpleDynamicClientWithCustomListKinds(scheme,
				map[schema.GroupVersionResource]string{gvr: "DeploymentList"}, deployment("5", "live"))
			r := New(client, 0, Resource{GVR: gvr, GVK: gvk, Namespaced: true})
			if tc.cached != nil {
				if err := r.kinds[gvk].informer.GetIndexer().Add(tc.cached); err != nil {
					t.Fatal(err)
				}
			}
			if tc.statusFrom != "" {
				r.RecordStatusWrite(types.UID("u1"), tc.statusFrom, tc.cached.GetResourceVersion())
			}
			got, err := r.GetFresh(context.Background(), client, key, tc.want)
			if err != nil {
				t.Fatal(err)
			}
			if image, _, _ := unstructured.NestedString(got.Object, "spec", "image"); image != tc.wantImage {
				t.Errorf("got the %s template, want the %s one", image, tc.wantImage)
			}
		})
	}
}

func TestExcluded(t *testing.T) {
	t.Parallel()
	tests := []struct {
		gr   schema.GroupResource
		want bool
	}{
		{schema.GroupResource{Group: "apps", Resource: "deployments"}, false},
		{schema.GroupResource{Group: "apps", Resource: "deployments/status"}, true},
		{schema.GroupResource{Resource: "events"}, true},
		{schema.GroupResource{Group: "policy.karmada.io", Resource: "propagationpolicies"}, true},
		{schema.GroupResource{Group: "autoscaling.karmada.io", Resource: "federatedhpas"}, true},
		{schema.GroupResource{Group: "rollout.mco-org.github.io", Resource: "rolloutpolicies"}, true},
		// An Addon is mco's own and a template all the same; its status is not.
		{schema.GroupResource{Group: "addons.mco-org.github.io", Resource: "addons"}, false},
		{schema.GroupResource{Group: "addons.mco-org.github.io", Resource: "addons/status"}, true},
		// Karmada's operator's kind is a template like any custom resource.
		{schema.GroupResource{Group: "operator.karmada.io", Resource: "karmadas"}, false},
		{schema.GroupResource{Group: "notkarmada.io", Resource: "things"}, false},
	}
	for _, tt := range tests {
		if got := Excluded(tt.gr); got != tt.want {
			t.Errorf("Excluded(%s) = %v, want %v", tt.gr, got, tt.want)
		}
	}
}
