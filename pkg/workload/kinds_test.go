/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package workload

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/testing/builders"
)

// report is one cluster's entry in a binding's aggregated status (see
// builders.Report).
func report(t *testing.T, cluster string, status any) workv1alpha2.AggregatedStatusItem {
	t.Helper()
	return builders.Report(t, cluster, status)
}

// aggregateAs aggregates the members' reports onto template and decodes the
// status into S, failing unless the status round-trips through S unchanged.
func aggregateAs[S any](t *testing.T, template *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem) S {
	t.Helper()
	out, ok, err := AggregateStatus(template, items, aggregatedAt)
	if err != nil || !ok {
		t.Fatalf("AggregateStatus = ok %v, err %v; want ok", ok, err)
	}
	var s S
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(out, &s); err != nil {
		t.Fatal(err)
	}
	again, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(out, again); diff != "" {
		t.Errorf("status does not round-trip through %T (-written +decoded):\n%s", s, diff)
	}
	return s
}

// reflectAs records the status of a member object and decodes it into R;
// fields lists the JSON fields recorded.
func reflectAs[R any](t *testing.T, obj *unstructured.Unstructured) (r R, fields map[string]any) {
	t.Helper()
	raw, err := ReflectStatus(obj)
	if err != nil {
		t.Fatalf("ReflectStatus: %v", err)
	}
	if raw == nil {
		t.Fatal("status = nil, want a status")
	}
	if err := json.Unmarshal(raw.Raw, &r); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw.Raw, &fields); err != nil {
		t.Fatal(err)
	}
	return r, fields
}

func TestInterpretedKindsRefuseObjectsTheyCannotDecode(t *testing.T) {
	t.Parallel()
	for kind, in := range interpreters {
		t.Run("An undecodable "+kind+" is an error to reflect and aggregate, and of unknown health.", func(t *testing.T) {
			t.Parallel()
			u := &unstructured.Unstructured{Object: map[string]any{
				"metadata": map[string]any{"name": "web", "namespace": "shop"},
				"spec":     "not an object", "status": "not an object",
			}}
			group, name, _ := strings.Cut(kind, "/")
			u.SetAPIVersion(strings.TrimPrefix(group+"/v1", "/"))
			u.SetKind(name)
			if in.reflect != nil {
				if _, err := ReflectStatus(u); err == nil {
					t.Error("ReflectStatus: no error, want one")
				}
			}
			if in.health != nil {
				if got := Health(u); got != workv1alpha2.ResourceUnknown {
					t.Errorf("Health = %s, want %s", got, workv1alpha2.ResourceUnknown)
				}
			}
			if _, ok, err := AggregateStatus(u, nil, aggregatedAt); err == nil || ok {
				t.Errorf("AggregateStatus = ok %v, err %v; want an error", ok, err)
			}
		})
	}
}

func TestSlimLeavesOutTemplateAndManagedFieldsOnly(t *testing.T) {
	t.Parallel()
	obj := map[string]any{
		"kind": "Deployment",
		"metadata": map[string]any{"name": "web", "generation": int64(3),
			"managedFields": []any{map[string]any{"manager": "mco"}}},
		"spec":   map[string]any{"replicas": int64(2), "template": map[string]any{"spec": map[string]any{}}},
		"status": map[string]any{"replicas": int64(2)},
	}
	before := runtime.DeepCopyJSON(obj)
	got := slim(obj)
	want := map[string]any{
		"kind":     "Deployment",
		"metadata": map[string]any{"name": "web", "generation": int64(3)},
		"spec":     map[string]any{"replicas": int64(2)},
		"status":   map[string]any{"replicas": int64(2)},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("slim (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(before, obj); diff != "" {
		t.Errorf("slim changed its input (-before +after):\n%s", diff)
	}
	if got := slim(map[string]any{"kind": "ConfigMap", "data": map[string]any{"a": "b"}}); len(got) != 2 {
		t.Errorf("an object without metadata or spec: got %v", got)
	}
}
