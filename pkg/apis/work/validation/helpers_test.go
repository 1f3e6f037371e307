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

package validation

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// wantErr names one expected error by its type and path.
type wantErr struct {
	typ  field.ErrorType
	path string
}

func fe(typ field.ErrorType, path string) wantErr { return wantErr{typ, path} }

// assertErrors compares the (type, path) pairs of errs with want, ignoring order.
func assertErrors(t *testing.T, errs field.ErrorList, want ...wantErr) {
	t.Helper()
	got := make([]string, 0, len(errs))
	for _, e := range errs {
		got = append(got, fmt.Sprintf("%s %s", e.Type, e.Field))
	}
	exp := make([]string, 0, len(want))
	for _, w := range want {
		exp = append(exp, fmt.Sprintf("%s %s", w.typ, w.path))
	}
	sort.Strings(got)
	sort.Strings(exp)
	if strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Errorf("errors:\n got %q\nwant %q\nfull: %v", got, exp, errs.ToAggregate())
	}
}
