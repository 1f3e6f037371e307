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

package v1alpha1

import (
	"reflect"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func TestDefaultingLeavesSelectorsAloneWithoutNamespace(t *testing.T) {
	t.Parallel()
	scheme := newScheme(t)
	policy := &PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "nginx"},
		Spec:       PropagationSpec{ResourceSelectors: []ResourceSelector{deployment("")}},
	}
	scheme.Default(policy)
	if ns := policy.Spec.ResourceSelectors[0].Namespace; ns != "" {
		t.Errorf("selector namespace = %q, want it left empty until the policy has a namespace", ns)
	}
	policy.Namespace = "team-a"
	scheme.Default(policy)
	if ns := policy.Spec.ResourceSelectors[0].Namespace; ns != "team-a" {
		t.Errorf("selector namespace = %q, want %q once the policy has one", ns, "team-a")
	}
}

func TestDefaultingOtherKinds(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   runtime.Object
		want runtime.Object
	}{
		{
			name: "A cluster-wide propagation policy gets the spec defaults but keeps empty selector namespaces.",
			in: &ClusterPropagationPolicy{
				ObjectMeta: metav1.ObjectMeta{Name: "all"},
				Spec:       PropagationSpec{ResourceSelectors: []ResourceSelector{deployment("")}},
			},
			want: &ClusterPropagationPolicy{ObjectMeta: metav1.ObjectMeta{Name: "all"}, Spec: defaultedSpec(deployment(""))},
		},
		{
			name: "An override policy's selectors without a namespace get the policy namespace.",
			in: &OverridePolicy{ObjectMeta: namespaced("o"), Spec: OverrideSpec{
				ResourceSelectors: []ResourceSelector{deployment(""), deployment("default")},
			}},
			want: &OverridePolicy{ObjectMeta: namespaced("o"), Spec: OverrideSpec{
				ResourceSelectors: []ResourceSelector{deployment("default"), deployment("default")},
			}},
		},
		{
			name: "A cluster-wide override policy is left unchanged.",
			in: &ClusterOverridePolicy{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: OverrideSpec{
				ResourceSelectors: []ResourceSelector{deployment("")},
			}},
			want: &ClusterOverridePolicy{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: OverrideSpec{
				ResourceSelectors: []ResourceSelector{deployment("")},
			}},
		},
		{
			name: "Every item of a propagation policy list is defaulted.",
			in: &PropagationPolicyList{Items: []PropagationPolicy{
				{ObjectMeta: namespaced("a"), Spec: PropagationSpec{ResourceSelectors: []ResourceSelector{deployment("")}}},
				{ObjectMeta: namespaced("b")},
			}},
			want: &PropagationPolicyList{Items: []PropagationPolicy{
				{ObjectMeta: namespaced("a"), Spec: defaultedSpec(deployment("default"))},
				{ObjectMeta: namespaced("b"), Spec: defaultedSpec()},
			}},
		},
		{
			name: "Every item of a cluster propagation policy list is defaulted.",
			in:   &ClusterPropagationPolicyList{Items: []ClusterPropagationPolicy{{ObjectMeta: metav1.ObjectMeta{Name: "a"}}}},
			want: &ClusterPropagationPolicyList{Items: []ClusterPropagationPolicy{{ObjectMeta: metav1.ObjectMeta{Name: "a"}, Spec: defaultedSpec()}}},
		},
		{
			name: "Every item of an override policy list is defaulted.",
			in: &OverridePolicyList{Items: []OverridePolicy{{ObjectMeta: namespaced("o"), Spec: OverrideSpec{
				ResourceSelectors: []ResourceSelector{deployment("")},
			}}}},
			want: &OverridePolicyList{Items: []OverridePolicy{{ObjectMeta: namespaced("o"), Spec: OverrideSpec{
				ResourceSelectors: []ResourceSelector{deployment("default")},
			}}}},
		},
	}
	scheme := newScheme(t)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obj := tc.in.DeepCopyObject()
			scheme.Default(obj)
			if !reflect.DeepEqual(obj, tc.want) {
				t.Errorf("defaulted object differs\n got: %+v\nwant: %+v", obj, tc.want)
			}
			expectIdempotent(t, scheme, obj)
		})
	}
}
