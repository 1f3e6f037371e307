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

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestHealth(t *testing.T) {
	t.Parallel()
	// rollout is a member Deployment of generation 2 wanting replicas.
	rollout := func(t *testing.T, replicas *int32, status appsv1.DeploymentStatus) *unstructured.Unstructured {
		d := deployment(replicas, podSpec())
		d.Generation = 2
		d.Status = status
		return object(t, "apps/v1", "Deployment", d)
	}
	cases := []struct {
		name string
		obj  func(t *testing.T) *unstructured.Unstructured
		want workv1alpha2.ResourceHealth
	}{
		{
			name: "A Deployment whose every replica is updated and available is healthy.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return rollout(t, ptr[int32](3), appsv1.DeploymentStatus{ObservedGeneration: 2, UpdatedReplicas: 3, AvailableReplicas: 3})
			},
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A Deployment whose controller has not observed the latest generation is unhealthy.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return rollout(t, ptr[int32](3), appsv1.DeploymentStatus{ObservedGeneration: 1, UpdatedReplicas: 3, AvailableReplicas: 3})
			},
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A Deployment with fewer updated replicas than wanted is unhealthy.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return rollout(t, ptr[int32](3), appsv1.DeploymentStatus{ObservedGeneration: 2, UpdatedReplicas: 2, AvailableReplicas: 3})
			},
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A Deployment whose updated replicas are not all available is unhealthy.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return rollout(t, ptr[int32](3), appsv1.DeploymentStatus{ObservedGeneration: 2, UpdatedReplicas: 3, AvailableReplicas: 2})
			},
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A Deployment without spec.replicas wants one replica.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return rollout(t, nil, appsv1.DeploymentStatus{ObservedGeneration: 2, UpdatedReplicas: 1, AvailableReplicas: 1})
			},
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A Deployment without spec.replicas and no updated replica is unhealthy.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return rollout(t, nil, appsv1.DeploymentStatus{ObservedGeneration: 2})
			},
			want: workv1alpha2.ResourceUnhealthy,
		},
		{
			name: "A Deployment scaled to zero is healthy once observed.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return rollout(t, ptr[int32](0), appsv1.DeploymentStatus{ObservedGeneration: 2})
			},
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A Deployment that cannot be decoded has unknown health.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				u := rollout(t, ptr[int32](1), appsv1.DeploymentStatus{})
				u.Object["spec"] = map[string]any{"replicas": "one"}
				return u
			},
			want: workv1alpha2.ResourceUnknown,
		},
		{
			name: "A ConfigMap is healthy once it exists.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "ConfigMap", &corev1.ConfigMap{})
			},
			want: workv1alpha2.ResourceHealthy,
		},
		{
			name: "A PersistentVolumeClaim has no rule and is healthy once it exists, bound or not.",
			obj: func(t *testing.T) *unstructured.Unstructured {
				return object(t, "v1", "PersistentVolumeClaim", &corev1.PersistentVolumeClaim{
					Status: corev1.PersistentVolumeClaimStatus{Phase: corev1.ClaimPending}})
			},
			want: workv1alpha2.ResourceHealthy,
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := Health(tc.obj(t)); got != tc.want {
				t.Errorf("Health = %s, want %s", got, tc.want)
			}
			if _, got, _ := Observe(tc.obj(t)); got != tc.want {
				t.Errorf("Observe's health = %s, want %s", got, tc.want)
			}
		})
	}
}
