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

package placement_test

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/policy/validation"
	"github.com/mco-org/mco/pkg/placement"
)

// TestFieldSelectorAgreesWithValidation makes sure the matcher compiles
// exactly the field selectors the policy validation accepts, so a policy
// the apiserver stored never fails to match for a reason users were not
// told about, and the matcher never guesses at one validation refuses.
func TestFieldSelectorAgreesWithValidation(t *testing.T) {
	t.Parallel()
	keys := []string{"provider", "region", "zone", "name", "cluster", ""}
	ops := []corev1.NodeSelectorOperator{
		corev1.NodeSelectorOpIn, corev1.NodeSelectorOpNotIn, corev1.NodeSelectorOpExists,
		corev1.NodeSelectorOpDoesNotExist, corev1.NodeSelectorOpGt, corev1.NodeSelectorOpLt, "",
	}
	accepted := 0
	for _, key := range keys {
		for _, op := range ops {
			for _, values := range [][]string{nil, {"a"}, {"a", "b"}} {
				affinity := fieldAffinity(key, op, values...)
				p := &policyv1alpha1.Placement{ClusterAffinity: affinity}
				var invalid []string
				for _, e := range validation.ValidatePlacement(p, field.NewPath("placement")) {
					if strings.Contains(e.Field, "fieldSelector") {
						invalid = append(invalid, e.Error())
					}
				}
				_, err := placement.CompileAffinity(affinity)
				if (len(invalid) > 0) != (err != nil) {
					t.Errorf("%s: validation says %v, matcher says %v", describeExpr(key, op, values), invalid, err)
				}
				if err == nil {
					accepted++
				}
			}
		}
	}
	// provider, region and zone, each with In and NotIn, each with no, one or two values.
	if accepted != 18 {
		t.Errorf("%d field selectors accepted, want 18", accepted)
	}
}

func describeExpr(key string, op corev1.NodeSelectorOperator, values []string) string {
	return fmt.Sprintf("{key: %q, operator: %q, values: %q}", key, op, values)
}
