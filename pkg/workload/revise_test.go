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

package workload

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

func TestReviseReplicas(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		obj      func(t *testing.T) *unstructured.Unstructured
		replicas int32
		field    []string // the field that must hold replicas afterwards; nil: the object is unchanged
		wantErr  bool
	}{
		{
			name: "A Deployment gets the cluster's share in spec.replicas.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", deployment(ptr[int32](5), podSpec(container("cpu", "1"))))
			},
			replicas: 2, field: []string{"spec", "replicas"},
		},
		{
			name: "A Deployment without spec.replicas gets one.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", deployment(nil, podSpec()))
			},
			replicas: 3, field: []string{"spec", "replicas"},
		},
		{
			name: "A share of zero is written too.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "Deployment", deployment(ptr[int32](5), podSpec()))
			},
			replicas: 0, field: []string{"spec", "replicas"},
		},
		{
			name: "A StatefulSet gets the cluster's share in spec.replicas.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "StatefulSet", &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: ptr[int32](4)}})
			},
			replicas: 1, field: []string{"spec", "replicas"},
		},
		{
			name: "A ReplicaSet gets the cluster's share in spec.replicas.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "apps/v1", "ReplicaSet", &appsv1.ReplicaSet{Spec: appsv1.ReplicaSetSpec{Replicas: ptr[int32](4)}})
			},
			replicas: 3, field: []string{"spec", "replicas"},
		},
		{
			name: "A Job gets the cluster's share in spec.parallelism and keeps its completions.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "batch/v1", "Job", job(ptr[int32](6), ptr[int32](10)))
			},
			replicas: 2, field: []string{"spec", "parallelism"},
		},
		{
			name: "A ConfigMap is left alone.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "ConfigMap", &corev1.ConfigMap{Data: map[string]string{"k": "v"}})
			},
			replicas: 2,
		},
		{
			name: "A Pod is left alone.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "Pod", &corev1.Pod{Spec: podSpec(container("cpu", "1"))})
			},
			replicas: 2,
		},
		{
			name: "A Deployment of another API group is left alone.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "example.com/v1", "Deployment", deployment(ptr[int32](5), podSpec()))
			},
			replicas: 2,
		},
		{
			name: "A Deployment whose spec is not an object is an error.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				u := object(t, "apps/v1", "Deployment", deployment(ptr[int32](5), podSpec()))
				u.Object["spec"] = "broken"
				return u
			},
			replicas: 2, wantErr: true,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			obj := tc.obj(t)
			want := obj.DeepCopy()
			err := ReviseReplicas(obj, tc.replicas)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, want error %v", err, tc.wantErr)
			}
			if tc.wantErr {
				return
			}
			if tc.field != nil {
				if err := unstructured.SetNestedField(want.Object, int64(tc.replicas), tc.field...); err != nil {
					t.Fatal(err)
				}
			}
			if diff := cmp.Diff(want.Object, obj.Object); diff != "" {
				t.Errorf("object differs (-want +got):\n%s", diff)
			}
		})
	}
}
