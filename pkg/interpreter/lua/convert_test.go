package lua

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func equal(a, b any) bool { return reflect.DeepEqual(a, b) }

// TestRoundTrip passes a value in a map to a script returning it unchanged:
// what comes back is what Karmada gives back.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	cases := []struct {
		name string
		in   any
		want any // nil: the field is dropped
	}{
		{"an integer stays an integer", int64(3), int64(3)},
		{"a float stays a float", 2.5, 2.5},
		{"a whole float becomes an integer", float64(4), int64(4)},
		{"an int32", int32(7), int64(7)},
		{"a json.Number arrives as a string, as in Karmada", json.Number("12"), "12"},
		{"a large integer within float precision", int64(1 << 52), int64(1 << 52)},
		{"a large integer beyond float precision is rounded, as in Karmada", int64(1<<62 + 1), int64(1 << 62)},
		{"a string", "x", "x"},
		{"a bool", true, true},
		{"an empty map the script was given stays a map", map[string]any{}, map[string]any{}},
		{"an empty list the script was given stays a list", []any{}, []any{}},
		{"nested empties keep their shapes", map[string]any{"a": map[string]any{}, "b": []any{}}, map[string]any{"a": map[string]any{}, "b": []any{}}},
		{"a list of maps", []any{map[string]any{"a": int64(1)}, map[string]any{"b": "x"}}, []any{map[string]any{"a": int64(1)}, map[string]any{"b": "x"}}},
		{"a nil in a map drops the key", map[string]any{"a": nil, "b": "x"}, map[string]any{"b": "x"}},
		{"quantities stay strings", map[string]any{"cpu": "100m", "memory": "1Gi"}, map[string]any{"cpu": "100m", "memory": "1Gi"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := run(t, vm, `function F(x) return x end`, "F", false, map[string]any{"v": c.in})
			if err != nil {
				t.Fatal(err)
			}
			if v := got.(map[string]any)["v"]; !equal(v, c.want) {
				t.Fatalf("got %#v, want %#v", v, c.want)
			}
		})
	}
}

func TestFromLuaShapes(t *testing.T) {
	t.Parallel()
	vm := NewVM()
	given := map[string]any{
		"spec": map[string]any{"affinity": map[string]any{}, "ports": []any{}, "full": map[string]any{"a": "b"}},
		"list": []any{map[string]any{"env": []any{}}},
	}
	cases := []struct {
		name, body string
		list       bool
		want       any
		wantErr    string
	}{
		{"an empty result is a map", `return {}`, false, map[string]any{}, ""},
		{"an empty result is a list where a list is wanted", `return {}`, true, []any{}, ""},
		{"a new nested empty table is dropped, as in Karmada", `return {a = {}, b = 1}`, false, map[string]any{"b": int64(1)}, ""},
		{"an empty map given stays a map", `return {spec = {affinity = {}}}`, false, map[string]any{"spec": map[string]any{"affinity": map[string]any{}}}, ""},
		{"an empty list given stays a list", `return {spec = {ports = {}}}`, false, map[string]any{"spec": map[string]any{"ports": []any{}}}, ""},
		{"a map given full and emptied by the script is dropped, as in Karmada", `return {spec = {full = {}}}`, false, map[string]any{"spec": map[string]any{}}, ""},
		{"list positions are ignored when matching references", `return {list = {{env = {}}, {env = {}}}}`, false,
			map[string]any{"list": []any{map[string]any{"env": []any{}}, map[string]any{"env": []any{}}}}, ""},
		{"a table with keys 1..n is a list", `return {"a", "b"}`, false, []any{"a", "b"}, ""},
		{"a sparse list is an object keyed by the numbers, as in Karmada", `local t = {} t[1] = 1 t[3] = 3 return t`, false,
			map[string]any{"1": int64(1), "3": int64(3)}, ""},
		{"mixed keys make an object, as in Karmada", `return {1, a = 2}`, false, map[string]any{"1": int64(1), "a": int64(2)}, ""},
		{"keys not starting at 1 make an object", `return {[2] = "b"}`, false, map[string]any{"2": "b"}, ""},
		{"a list nested in an object stays a list", `return {a = {"x", "y"}}`, false, map[string]any{"a": []any{"x", "y"}}, ""},
		{"a function is refused", `return {f = function() end}`, false, nil, "f: cannot convert a Lua function"},
		{"a table holding itself is refused", `local t = {} t.self = t return t`, false, nil, "holds itself"},
		{"a fraction stays a float", `return 1/4`, false, 0.25, ""},
		{"NaN is refused", `return 0/0`, false, nil, "cannot convert the number"},
		{"infinity is refused", `return 1/0`, false, nil, "cannot convert the number"},
		{"a fractional key is refused", `local t = {1} t[2.5] = 2 return t`, false, nil, "keyed by the number 2.5"},
		{"a boolean key is refused", `local t = {} t[true] = 1 return t`, false, nil, "keyed by a boolean"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			got, err := run(t, vm, "function F(given) "+c.body+" end", "F", c.list, given)
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
