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

package estimate

import (
	"math/rand"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// amounts mixes small, fractional, huge, overflowing and negative values.
var amounts = []string{"0", "1", "3", "250m", "1500m", "7", "110", "1Gi", "512Mi", "8E", "100E", "-5", "9223372036854775807", "1k"}

// randomList fills some of names with random amounts.
func randomList(rng *rand.Rand, names []corev1.ResourceName) corev1.ResourceList {
	out := corev1.ResourceList{}
	for _, n := range names {
		if rng.Intn(4) > 0 {
			out[n] = resource.MustParse(amounts[rng.Intn(len(amounts))])
		}
	}
	return out
}

func TestCapacityAgreesWithAvailableReplicas(t *testing.T) {
	t.Parallel()
	names := []corev1.ResourceName{corev1.ResourcePods, corev1.ResourceCPU, corev1.ResourceMemory, gpu}
	rng := rand.New(rand.NewSource(3))
	for i := range 5000 {
		c := cluster(randomList(rng, names), randomList(rng, names), randomList(rng, names))
		req := requests()
		req.ResourceRequest = randomList(rng, names)
		capacity, request := CapacityOf(c), RequestOf(req)
		if got, want := capacity.Replicas(&request), AvailableReplicas(c, req); got != want {
			t.Fatalf("case %d: Capacity.Replicas = %d, AvailableReplicas = %d\nsummary %+v\nrequest %v",
				i, got, want, c.Status.ResourceSummary, req.ResourceRequest)
		}
	}
}
