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
	corev1 "k8s.io/api/core/v1"
)

func TestPodRequests(t *testing.T) {
	t.Parallel()
	always := corev1.ContainerRestartPolicyAlways
	sidecar := func(requests ...string) corev1.Container {
		c := container(requests...)
		c.RestartPolicy = &always
		return c
	}
	cases := []struct {
		name string
		spec corev1.PodSpec
		want corev1.ResourceList
	}{
		{name: "App containers add up.", spec: podSpec(container("cpu", "100m"), container("cpu", "250m", "memory", "1Gi")), want: list("cpu", "350m", "memory", "1Gi")},
		{name: "Nothing requested gives nil.", spec: podSpec(container(), container())},
		{name: "Zero requests are left out.", spec: podSpec(container("cpu", "0", "memory", "1Mi")), want: list("memory", "1Mi")},
		{
			name: "A large init container raises the total only where it exceeds the app containers.",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{container("cpu", "2", "memory", "10Mi")}, Containers: []corev1.Container{container("cpu", "500m", "memory", "1Gi")}},
			want: list("cpu", "2", "memory", "1Gi"),
		},
		{
			name: "Init containers run one at a time, so the largest counts rather than their sum.",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{container("cpu", "1"), container("cpu", "3")}, Containers: []corev1.Container{container("cpu", "500m")}},
			want: list("cpu", "3"),
		},
		{
			name: "Sidecars add to the app containers.",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{sidecar("cpu", "200m")}, Containers: []corev1.Container{container("cpu", "500m")}},
			want: list("cpu", "700m"),
		},
		{
			name: "An init container after a sidecar runs next to it.",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{sidecar("cpu", "1"), container("cpu", "2")}, Containers: []corev1.Container{container("cpu", "500m")}},
			want: list("cpu", "3"),
		},
		{
			name: "An init container before a sidecar runs alone.",
			spec: corev1.PodSpec{InitContainers: []corev1.Container{container("cpu", "2"), sidecar("cpu", "1")}, Containers: []corev1.Container{container("cpu", "500m")}},
			want: list("cpu", "2"),
		},
		{
			name: "Pod overhead is added.",
			spec: corev1.PodSpec{Overhead: list("cpu", "50m", "memory", "20Mi"), Containers: []corev1.Container{container("cpu", "100m")}},
			want: list("cpu", "150m", "memory", "20Mi"),
		},
		{
			name: "A limit without a request counts as the request.",
			spec: podSpec(corev1.Container{Name: "c", Resources: corev1.ResourceRequirements{Limits: list("cpu", "1", "memory", "2Gi"), Requests: list("cpu", "250m")}}),
			want: list("cpu", "250m", "memory", "2Gi"),
		},
		{
			name: "Pod-level requests replace the container total for their resources, before overhead.",
			spec: corev1.PodSpec{
				Resources:  &corev1.ResourceRequirements{Requests: list("cpu", "4")},
				Overhead:   list("cpu", "100m"),
				Containers: []corev1.Container{container("cpu", "1", "memory", "1Gi")},
			},
			want: list("cpu", "4100m", "memory", "1Gi"),
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tc.want, podRequests(&tc.spec), sameQuantity); diff != "" {
				t.Fatalf("requests differ (-want +got):\n%s", diff)
			}
		})
	}
}

func TestPodRequestsLeavesSpecUntouched(t *testing.T) {
	t.Parallel()
	spec := corev1.PodSpec{Overhead: list("cpu", "1"), Containers: []corev1.Container{container("cpu", "1"), container("cpu", "1")}}
	before := spec.DeepCopy()
	podRequests(&spec)
	if diff := cmp.Diff(before, &spec, sameQuantity); diff != "" {
		t.Fatalf("podRequests changed the spec:\n%s", diff)
	}
}
