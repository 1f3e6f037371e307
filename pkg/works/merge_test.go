package works

import (
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

func TestManifestsEqual(t *testing.T) {
	t.Parallel()
	m := func(docs ...string) []workv1alpha1.Manifest {
		out := make([]workv1alpha1.Manifest, len(docs))
		for i, d := range docs {
			out[i] = workv1alpha1.Manifest{RawExtension: runtime.RawExtension{Raw: []byte(d)}}
		}
		return out
	}
	cases := []struct {
		name string
		a, b []workv1alpha1.Manifest
		want bool
	}{
		{name: "No manifests on either side are equal.", want: true},
		{name: "The same bytes are equal.", a: m(`{"a":1}`), b: m(`{"a":1}`), want: true},
		{name: "Key order does not matter.", a: m(`{"a":1,"b":{"c":2,"d":3}}`), b: m(`{"b":{"d":3,"c":2},"a":1}`), want: true},
		{name: "Whitespace does not matter.", a: m(`{"a": [1, 2]}`), b: m(`{"a":[1,2]}`), want: true},
		{name: "A different value differs.", a: m(`{"a":1}`), b: m(`{"a":2}`)},
		{name: "List order matters.", a: m(`{"a":[1,2]}`), b: m(`{"a":[2,1]}`)},
		{name: "A missing key differs.", a: m(`{"a":1,"b":null}`), b: m(`{"a":1}`)},
		{name: "A different number of manifests differs.", a: m(`{"a":1}`), b: m(`{"a":1}`, `{"b":1}`)},
		{name: "Manifests are compared in order.", a: m(`{"a":1}`, `{"b":1}`), b: m(`{"b":1}`, `{"a":1}`)},
		{name: "A manifest that is not JSON never equals anything.", a: m(`{not json`), b: m(`{not json`)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := ManifestsEqual(tc.a, tc.b); got != tc.want {
				t.Errorf("ManifestsEqual = %v, want %v", got, tc.want)
			}
			if got := ManifestsEqual(tc.b, tc.a); got != tc.want {
				t.Errorf("ManifestsEqual reversed = %v, want %v", got, tc.want)
			}
		})
	}
}
