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

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
)

func TestValidateWorkloadRebalancer(t *testing.T) {
	t.Parallel()
	web := appsv1alpha1.ObjectReference{APIVersion: "apps/v1", Kind: "Deployment", Namespace: "default", Name: "web"}
	neg := int32(-1)
	tests := []struct {
		name string
		edit func(*appsv1alpha1.WorkloadRebalancer)
		want []string
	}{
		{name: "valid", edit: func(*appsv1alpha1.WorkloadRebalancer) {}},
		{name: "cluster-scoped workload", edit: func(r *appsv1alpha1.WorkloadRebalancer) {
			r.Spec.Workloads = append(r.Spec.Workloads, appsv1alpha1.ObjectReference{APIVersion: "v1", Kind: "Namespace", Name: "prod"})
		}},
		{name: "no workloads", edit: func(r *appsv1alpha1.WorkloadRebalancer) { r.Spec.Workloads = nil },
			want: []string{"spec.workloads: Required value"}},
		{name: "empty reference", edit: func(r *appsv1alpha1.WorkloadRebalancer) {
			r.Spec.Workloads = []appsv1alpha1.ObjectReference{{Namespace: "Bad_NS"}}
		}, want: []string{
			"spec.workloads[0].apiVersion: Required value", "spec.workloads[0].kind: Required value",
			"spec.workloads[0].name: Required value", "spec.workloads[0].namespace: Invalid value",
		}},
		{name: "bad apiVersion", edit: func(r *appsv1alpha1.WorkloadRebalancer) { r.Spec.Workloads[0].APIVersion = "a/b/c" },
			want: []string{"spec.workloads[0].apiVersion: Invalid value"}},
		{name: "twice", edit: func(r *appsv1alpha1.WorkloadRebalancer) { r.Spec.Workloads = append(r.Spec.Workloads, web) },
			want: []string{"spec.workloads[1]: Duplicate value"}},
		{name: "negative TTL", edit: func(r *appsv1alpha1.WorkloadRebalancer) { r.Spec.TTLSecondsAfterFinished = &neg },
			want: []string{"spec.ttlSecondsAfterFinished: Invalid value"}},
		{name: "namespaced name", edit: func(r *appsv1alpha1.WorkloadRebalancer) { r.Namespace = "default" },
			want: []string{"metadata.namespace: Forbidden"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := &appsv1alpha1.WorkloadRebalancer{ObjectMeta: metav1.ObjectMeta{Name: "r"},
				Spec: appsv1alpha1.WorkloadRebalancerSpec{Workloads: []appsv1alpha1.ObjectReference{web}}}
			tt.edit(r)
			var got []string
			for _, e := range ValidateWorkloadRebalancer(r) {
				got = append(got, e.Field+": "+e.Type.String())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("errors (-want +got):\n%s", diff)
			}
		})
	}
}
