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

package builders

import (
	"encoding/json"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

// Report is one cluster's entry in a binding's aggregated status carrying
// status as JSON; a nil status (or nil pointer) means the cluster has not
// reported.
func Report(t testing.TB, cluster string, status any) workv1alpha2.AggregatedStatusItem {
	t.Helper()
	it := workv1alpha2.AggregatedStatusItem{ClusterName: cluster}
	if status == nil {
		return it
	}
	if v := reflect.ValueOf(status); v.Kind() == reflect.Pointer && v.IsNil() {
		return it
	}
	raw, err := json.Marshal(status)
	if err != nil {
		t.Fatal(err)
	}
	it.Status = &runtime.RawExtension{Raw: raw}
	return it
}
