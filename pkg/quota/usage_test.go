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

package quota

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"

	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func list(kv ...string) corev1.ResourceList {
	out := corev1.ResourceList{}
	for i := 0; i < len(kv); i += 2 {
		out[corev1.ResourceName(kv[i])] = resource.MustParse(kv[i+1])
	}
	return out
}

// text renders a list for comparison, "cpu=1500m".
func text(l corev1.ResourceList) map[string]string {
	out := map[string]string{}
	for n, q := range l {
		out[string(n)] = q.String()
	}
	return out
}

func TestUsage(t *testing.T) {
	t.Parallel()
	spec := &workv1alpha2.ResourceBindingSpec{Replicas: 3, ReplicaRequirements: &workv1alpha2.ReplicaRequirements{
		ResourceRequest: list("cpu", "500m", "memory", "1Gi", "nvidia.com/gpu", "1")}}
	names := Names(list("cpu", "0", "requests.memory", "0", "pods", "0", "limits.cpu", "0", "requests.nvidia.com/gpu", "0", "ephemeral-storage", "0"))
	tests := []struct {
		name     string
		spec     *workv1alpha2.ResourceBindingSpec
		clusters []workv1alpha2.TargetCluster
		want     map[string]string
	}{
		{name: "divided", spec: spec, clusters: []workv1alpha2.TargetCluster{{Name: "a", Replicas: 2}, {Name: "b", Replicas: 1}},
			want: map[string]string{"cpu": "1500m", "requests.memory": "3Gi", "pods": "3", "limits.cpu": "0",
				"requests.nvidia.com/gpu": "3", "ephemeral-storage": "0"}},
		{name: "duplicated in two clusters counts twice", spec: spec,
			clusters: []workv1alpha2.TargetCluster{{Name: "a", Replicas: 3}, {Name: "b", Replicas: 3}},
			want: map[string]string{"cpu": "3", "requests.memory": "6Gi", "pods": "6", "limits.cpu": "0",
				"requests.nvidia.com/gpu": "6", "ephemeral-storage": "0"}},
		{name: "not placed", spec: spec,
			want: map[string]string{"cpu": "0", "requests.memory": "0", "pods": "0", "limits.cpu": "0",
				"requests.nvidia.com/gpu": "0", "ephemeral-storage": "0"}},
		{name: "a kind without replicas", spec: &workv1alpha2.ResourceBindingSpec{},
			clusters: []workv1alpha2.TargetCluster{{Name: "a"}},
			want: map[string]string{"cpu": "0", "requests.memory": "0", "pods": "0", "limits.cpu": "0",
				"requests.nvidia.com/gpu": "0", "ephemeral-storage": "0"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, text(Usage(tt.spec, tt.clusters, names))); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestExcess(t *testing.T) {
	t.Parallel()
	limit := list("cpu", "2", "pods", "4")
	tests := []struct {
		name          string
		before, after corev1.ResourceList
		want          []string
	}{
		{name: "fits", before: list("cpu", "1", "pods", "2"), after: list("cpu", "2", "pods", "4")},
		{name: "grows past the limit", before: list("cpu", "1", "pods", "2"), after: list("cpu", "3", "pods", "3"),
			want: []string{"cpu: 3 would be used (2 more), over the limit of 2"}},
		{name: "already past, shrinking: allowed", before: list("cpu", "5", "pods", "8"), after: list("cpu", "4", "pods", "8")},
		{name: "already past, growing: refused", before: list("cpu", "5", "pods", "8"), after: list("cpu", "5", "pods", "9"),
			want: []string{"pods: 9 would be used (1 more), over the limit of 4"}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, Excess(tt.before, tt.after, limit)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
