package intern

import (
	"reflect"
	"testing"
)

// TestPairs: a map kept as Pairs reads back equal, absent and empty kept
// apart, every string canonical, and each read is the caller's own map.
func TestPairs(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   map[string]string
	}{
		{"absent", nil},
		{"empty", map[string]string{}},
		{"one", map[string]string{fresh("app"): fresh("web")}},
		{"several", map[string]string{fresh("work.karmada.io/name"): fresh("web-6d9"), fresh("work.karmada.io/namespace"): fresh("karmada-es-m1"),
			fresh("a"): "", fresh("z"): fresh("last")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := PairsOf(tc.in)
			got := p.Map()
			if !reflect.DeepEqual(got, tc.in) || (got == nil) != (tc.in == nil) {
				t.Fatalf("read back %#v, want %#v", got, tc.in)
			}
			for k, v := range got {
				if k != "" && !same(k, String(fresh(k))) || v != "" && !same(v, String(fresh(v))) {
					t.Errorf("%q: %q not canonical", k, v)
				}
			}
			if got != nil {
				got["added"] = "x"
				if _, ok := p.Map()["added"]; ok {
					t.Error("a read map shares state with the pairs")
				}
			}
		})
	}
}
