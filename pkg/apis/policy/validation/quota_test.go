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

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
)

func resources(kv ...string) policyv1alpha1.ResourceQuantities {
	out := policyv1alpha1.ResourceQuantities{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

func TestValidateFederatedResourceQuota(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func(*policyv1alpha1.FederatedResourceQuota)
		want []fieldErr
	}{
		{name: "A quota with an overall limit and assignments within it is valid.", edit: func(*policyv1alpha1.FederatedResourceQuota) {}},
		{name: "Assignments are optional.", edit: func(q *policyv1alpha1.FederatedResourceQuota) { q.Spec.StaticAssignments = nil }},
		{name: "The overall limit is needed.", edit: func(q *policyv1alpha1.FederatedResourceQuota) {
			q.Spec.Overall = nil
			q.Spec.StaticAssignments = nil
		}, want: []fieldErr{required("spec.overall")}},
		{name: "A negative quantity and a bad resource name are refused.", edit: func(q *policyv1alpha1.FederatedResourceQuota) {
			q.Spec.Overall = resources("cpu", "-1", "bad name!", "1", "memory", "8Gi")
		}, want: []fieldErr{invalid("spec.overall[bad name!]"), invalid("spec.overall[cpu]"),
			invalid("spec.staticAssignments")}},
		{name: "A cluster is assigned once, and named.", edit: func(q *policyv1alpha1.FederatedResourceQuota) {
			q.Spec.StaticAssignments = append(q.Spec.StaticAssignments,
				policyv1alpha1.StaticClusterAssignment{ClusterName: "member1", Hard: resources("cpu", "1")},
				policyv1alpha1.StaticClusterAssignment{Hard: resources("cpu", "1")})
		}, want: []fieldErr{duplicate("spec.staticAssignments[2].clusterName"), required("spec.staticAssignments[3].clusterName")}},
		{name: "An assignment limits only what the overall limit names.", edit: func(q *policyv1alpha1.FederatedResourceQuota) {
			q.Spec.StaticAssignments[0].Hard = resources("cpu", "1", "pods", "10")
		}, want: []fieldErr{invalid("spec.staticAssignments[0].hard[pods]")}},
		{name: "Assignments may not add up to more than the overall limit.", edit: func(q *policyv1alpha1.FederatedResourceQuota) {
			q.Spec.StaticAssignments[1].Hard = resources("cpu", "9", "memory", "1Gi")
		}, want: []fieldErr{invalid("spec.staticAssignments")}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			q := &policyv1alpha1.FederatedResourceQuota{
				ObjectMeta: metav1.ObjectMeta{Name: "team", Namespace: "team-a"},
				Spec: policyv1alpha1.FederatedResourceQuotaSpec{
					Overall: resources("cpu", "10", "memory", "20Gi"),
					StaticAssignments: []policyv1alpha1.StaticClusterAssignment{
						{ClusterName: "member1", Hard: resources("cpu", "2", "memory", "4Gi")},
						{ClusterName: "member3", Hard: resources("cpu", "4")},
					},
				},
			}
			tc.edit(q)
			expectErrors(t, ValidateFederatedResourceQuota(q), tc.want)
		})
	}
}
