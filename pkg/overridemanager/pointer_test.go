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

package overridemanager

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPointers(t *testing.T) {
	t.Parallel()
	doc := func() map[string]any {
		return map[string]any{
			"metadata": map[string]any{"labels": map[string]any{"app.kubernetes.io/name": "web", "a~b": "x"}},
			"spec":     map[string]any{"containers": []any{map[string]any{"image": "nginx"}}},
		}
	}
	tests := []struct {
		name    string
		pointer string
		want    any
		wantErr string
	}{
		{name: "A pointer steps through objects and lists.", pointer: "/spec/containers/0/image", want: "nginx"},
		{name: "A slash in a key is written ~1.", pointer: "/metadata/labels/app.kubernetes.io~1name", want: "web"},
		{name: "A tilde in a key is written ~0.", pointer: "/metadata/labels/a~0b", want: "x"},
		{name: "A missing field is an error naming the pointer so far.", pointer: "/spec/volumes/0", wantErr: "/spec/volumes: no such field"},
		{name: "An index out of range is an error.", pointer: "/spec/containers/1/image", wantErr: `/spec/containers/1: no index "1" in a list of 1`},
		{name: "A non-numeric index is an error.", pointer: "/spec/containers/first", wantErr: `/spec/containers/first: no index "first" in a list of 1`},
		{name: "A leading zero is not an index.", pointer: "/spec/containers/00", wantErr: `/spec/containers/00: no index "00" in a list of 1`},
		{name: "Stepping into a string is an error.", pointer: "/spec/containers/0/image/x", wantErr: "/spec/containers/0/image/x: cannot step into a string"},
		{name: "A pointer must start with a slash.", pointer: "spec", wantErr: "a JSON pointer starts with /"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tokens, err := parsePointer(tt.pointer)
			var got any
			if err == nil {
				got, err = lookup(doc(), tokens)
			}
			if errText(err) != tt.wantErr {
				t.Fatalf("error = %v, want %q", err, tt.wantErr)
			}
			if err != nil {
				return
			}
			if got != tt.want {
				t.Errorf("lookup = %v, want %v", got, tt.want)
			}
			if formatPointer(tokens) != tt.pointer {
				t.Errorf("formatPointer = %q, want %q", formatPointer(tokens), tt.pointer)
			}
			d := doc()
			if err := replaceAt(d, tokens, "new"); err != nil {
				t.Fatalf("replaceAt: %v", err)
			}
			if got, _ := lookup(d, tokens); got != "new" {
				t.Errorf("after replaceAt, lookup = %v, want new", got)
			}
		})
	}
}

func TestReplaceAtNeedsAnExistingValue(t *testing.T) {
	t.Parallel()
	d := map[string]any{"spec": map[string]any{}}
	err := replaceAt(d, []string{"spec", "replicas"}, int64(1))
	if errText(err) != "/spec/replicas: no such field" {
		t.Errorf("replaceAt error = %v", err)
	}
	if diff := cmp.Diff(map[string]any{"spec": map[string]any{}}, d); diff != "" {
		t.Errorf("document changed (-want +got):\n%s", diff)
	}
}
