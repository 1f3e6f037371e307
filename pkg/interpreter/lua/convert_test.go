package lua

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

func TestRoundTrip(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	cases := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"an integer stays an integer", int64(3), int64(3)},
		{"a float stays a float", 2.5, 2.5},
		{"a whole float becomes an integer", float64(4), int64(4)},
		{"an int32", int32(7), int64(7)},
		{"a json.Number", json.Number("12"), int64(12)},
		{"a large integer within float precision", int64(1 << 52), int64(1 << 52)},
		{"a large integer beyond float precision is rounded as in Karmada", int64(1<<62 + 1), int64(1 << 62)},
		{"a string", "x", "x"},
		{"a bool", true, true},
		{"an empty map keeps its shape", map[string]any{}, map[string]any{}},
		{"an empty list keeps its shape", []any{}, []any{}},
		{"a nested empty map keeps its shape", map[string]any{"a": map[string]any{}, "b": []any{}}, map[string]any{"a": map[string]any{}, "b": []any{}}},
		{"a list of maps", []any{map[string]any{"a": int64(1)}, map[string]any{}}, []any{map[string]any{"a": int64(1)}, map[string]any{}}},
		{"a map with nil drops the key", map[string]any{"a": nil, "b": "x"}, map[string]any{"b": "x"}},
		{"nested quantities stay strings", map[string]any{"cpu": "100m", "memory": "1Gi"}, map[string]any{"cpu": "100m", "memory": "1Gi"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := run(t, vm, `function F(x) return x end`, "F", c.in, c.in)
			if err != nil {
				t.Fatal(err)
			}
			if !equal(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}

func TestFromLuaShapes(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	cases := []struct {
		name, body string
		ref        any
		want       any
		wantErr    string
	}{
		{"a new empty table without reference is a list", `return {}`, nil, []any{}, ""},
		{"a new empty table where the reference has a map is a map", `return {}`, map[string]any{"a": "b"}, map[string]any{}, ""},
		{"a table with keys 1..n is a list", `return {"a", "b"}`, nil, []any{"a", "b"}, ""},
		{"a sparse list is refused", `local t = {} t[1] = 1 t[3] = 3 return t`, nil, nil, "sparse"},
		{"mixed keys are refused", `return {1, a = 2}`, nil, nil, "both"},
		{"a function is refused", `return {f = function() end}`, nil, nil, "function"},
		{"a table holding itself is refused", `local t = {} t.self = t return t`, nil, nil, "holds itself"},
		{"a fraction stays a float", `return 1/4`, nil, 0.25, ""},
		{"NaN is refused", `return 0/0`, nil, nil, "cannot convert the number"},
		{"infinity is refused", `return 1/0`, nil, nil, "cannot convert the number"},
		{"a number key beyond the list is refused", `local t = {1} t[2.5] = 2 return t`, nil, nil, "sparse"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := run(t, vm, "function F() "+c.body+" end", "F", c.ref)
			if c.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), c.wantErr) {
					t.Fatalf("got %#v, %v; want an error mentioning %q", got, err, c.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !equal(got, c.want) {
				t.Fatalf("got %#v, want %#v", got, c.want)
			}
		})
	}
}
