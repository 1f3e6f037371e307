package execution

import (
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestReleasePatch(t *testing.T) {
	t.Parallel()
	object := func(labels, annotations map[string]string) *unstructured.Unstructured {
		u := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment"}}
		u.SetLabels(labels)
		u.SetAnnotations(annotations)
		return u
	}
	cases := []struct {
		name string
		obj  *unstructured.Unstructured
		want map[string]any // nil: no patch
	}{
		{
			name: "Every mark mco left is removed; the user's labels and annotations stay.",
			obj: object(
				map[string]string{"app": "web", "work.karmada.io/permanent-id": "w1", "propagationpolicy.karmada.io/permanent-id": "p1"},
				map[string]string{"team": "a", "work.karmada.io/name": "web-1", "work.karmada.io/namespace": "karmada-es-m1",
					"resourcetemplate.karmada.io/uid": "u", "resourcetemplate.karmada.io/generation": "2",
					"resourcetemplate.karmada.io/managed-labels": "app", "resourcetemplate.karmada.io/managed-annotations": "team",
					"work.karmada.io/conflict-resolution": "abort",
					"propagationpolicy.karmada.io/name":   "web", "propagationpolicy.karmada.io/namespace": "default"}),
			want: map[string]any{"metadata": map[string]any{
				"labels": map[string]any{"work.karmada.io/permanent-id": nil, "propagationpolicy.karmada.io/permanent-id": nil},
				"annotations": map[string]any{"work.karmada.io/name": nil, "work.karmada.io/namespace": nil,
					"resourcetemplate.karmada.io/uid": nil, "resourcetemplate.karmada.io/generation": nil,
					"resourcetemplate.karmada.io/managed-labels": nil, "resourcetemplate.karmada.io/managed-annotations": nil,
					"work.karmada.io/conflict-resolution": nil,
					"propagationpolicy.karmada.io/name":   nil, "propagationpolicy.karmada.io/namespace": nil},
			}},
		},
		{
			name: "A ClusterPropagationPolicy's claim goes too, and only labels need removing.",
			obj: object(map[string]string{"work.karmada.io/permanent-id": "w1", "clusterpropagationpolicy.karmada.io/permanent-id": "c1"},
				map[string]string{"clusterpropagationpolicy.karmada.io/name": "all"}),
			want: map[string]any{"metadata": map[string]any{
				"labels":      map[string]any{"work.karmada.io/permanent-id": nil, "clusterpropagationpolicy.karmada.io/permanent-id": nil},
				"annotations": map[string]any{"clusterpropagationpolicy.karmada.io/name": nil},
			}},
		},
		{
			name: "An object without marks needs no patch.",
			obj:  object(map[string]string{"app": "web"}, nil),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			patch, ok := releasePatch(tc.obj)
			if ok != (tc.want != nil) {
				t.Fatalf("patch needed = %v, want %v", ok, tc.want != nil)
			}
			if !ok {
				return
			}
			var got map[string]any
			if err := json.Unmarshal(patch, &got); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("patch %s, want %v", patch, tc.want)
			}
		})
	}
}
