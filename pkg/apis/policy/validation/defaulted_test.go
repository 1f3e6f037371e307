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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

// TestDefaultedPoliciesAreValid checks that defaulting and validation agree:
// sparse but meaningful policies pass validation once defaulted.
func TestDefaultedPoliciesAreValid(t *testing.T) {
	t.Parallel()
	scheme := runtime.NewScheme()
	if err := policyv1alpha1.AddToScheme(scheme); err != nil {
		t.Fatalf("AddToScheme: %v", err)
	}
	sparseSpec := func() policyv1alpha1.PropagationSpec {
		return policyv1alpha1.PropagationSpec{
			ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment"}},
			PropagateDeps:     true,
			Placement: policyv1alpha1.Placement{
				SpreadConstraints: []policyv1alpha1.SpreadConstraint{{MaxGroups: 2}},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{},
			},
			Failover: &policyv1alpha1.FailoverBehavior{
				Application: &policyv1alpha1.ApplicationFailoverBehavior{},
				Cluster:     &policyv1alpha1.ClusterFailoverBehavior{},
			},
		}
	}
	tests := []struct {
		name     string
		obj      runtime.Object
		validate func(runtime.Object) []fieldErr
	}{
		{
			name: "A sparse PropagationPolicy is valid once defaulted.",
			obj: &policyv1alpha1.PropagationPolicy{
				ObjectMeta: metav1.ObjectMeta{Name: "p", Namespace: "default"}, Spec: sparseSpec(),
			},
			validate: func(obj runtime.Object) []fieldErr {
				return toFieldErrs(ValidatePropagationPolicy(obj.(*policyv1alpha1.PropagationPolicy)))
			},
		},
		{
			name: "A sparse ClusterPropagationPolicy is valid once defaulted.",
			obj:  &policyv1alpha1.ClusterPropagationPolicy{ObjectMeta: metav1.ObjectMeta{Name: "p"}, Spec: sparseSpec()},
			validate: func(obj runtime.Object) []fieldErr {
				return toFieldErrs(ValidateClusterPropagationPolicy(obj.(*policyv1alpha1.ClusterPropagationPolicy)))
			},
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obj := tc.obj.DeepCopyObject()
			scheme.Default(obj)
			if errs := tc.validate(obj); len(errs) != 0 {
				t.Errorf("defaulted object is invalid: %v", errs)
			}
		})
	}
}
