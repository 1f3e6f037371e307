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
	"testing"

	"github.com/mco-org/mco/pkg/testing/fielderr"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Expected errors are (type, path) pairs; see package fielderr.
type wantErr = fielderr.Want

func fe(typ field.ErrorType, path string) wantErr { return fielderr.New(typ, path) }

// assertErrors compares the (type, path) pairs of errs with want, ignoring order.
func assertErrors(t *testing.T, errs field.ErrorList, want ...wantErr) {
	t.Helper()
	fielderr.Assert(t, errs, want...)
}
