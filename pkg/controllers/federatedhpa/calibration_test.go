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

package federatedhpa

import (
	"math"
	"testing"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/utils/ptr"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

func TestShare(t *testing.T) {
	t.Parallel()
	targets := func(replicas ...int32) []workv1alpha2.TargetCluster {
		var out []workv1alpha2.TargetCluster
		for i, r := range replicas {
			out = append(out, workv1alpha2.TargetCluster{Name: []string{"m1", "m2", "m3"}[i], Replicas: r})
		}
		return out
	}
	all := func(string) bool { return true }
	notM2 := func(c string) bool { return c != "m2" }
	none := func(string) bool { return false }
	divided := &policyv1alpha1.Placement{ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDivided}}
	dup := &policyv1alpha1.Placement{ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{ReplicaSchedulingType: policyv1alpha1.ReplicaSchedulingTypeDuplicated}}
	spec := func(p *policyv1alpha1.Placement, replicas int32, clusters ...int32) *workv1alpha2.ResourceBindingSpec {
		return &workv1alpha2.ResourceBindingSpec{Placement: p, Replicas: replicas, Clusters: targets(clusters...)}
	}
	for _, tc := range []struct {
		name    string
		spec    *workv1alpha2.ResourceBindingSpec
		counted func(string) bool
		want    float64
	}{
		{"no binding", nil, all, 1},
		{"no replicas", spec(divided, 0, 0, 0), all, 1},
		{"divided, all counted", spec(divided, 6, 3, 3), all, 1},
		{"divided, m2 left out", spec(divided, 6, 4, 2), notM2, 4.0 / 6},
		{"divided, rescaled, not divided again yet", spec(divided, 12, 4, 2), notM2, 4.0 / 6},
		{"duplicated on three", spec(dup, 2, 2, 2, 2), all, 3},
		{"duplicated, m2 left out", spec(dup, 2, 2, 2, 2), notM2, 2},
		{"duplicated, rescaled, not scheduled again yet", spec(dup, 5, 2, 2, 2), all, 3},
		{"no placement is duplicated", spec(nil, 1, 1, 1), all, 2},
		{"not scheduled yet", spec(divided, 2), all, 1},
		{"nothing counted", spec(divided, 2, 1, 1), none, 1},
	} {
		if got := Share(tc.spec, tc.counted); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("%s: share %v, want %v", tc.name, got, tc.want)
		}
	}
}

func TestCountedReplicasConvertBack(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name               string
		share              float64
		replicas, counted  int32
		pods, back         int32
		minR, maxR, lo, hi int32
	}{
		{"identity", 1, 6, 6, 7, 7, 2, 10, 2, 10},
		{"duplicated on three", 3, 2, 6, 7, 3, 2, 10, 6, 30},
		{"duplicated on two", 2, 1, 2, 4, 2, 1, 4, 2, 8},
		{"a third left out", 4.0 / 6, 6, 4, 5, 8, 2, 10, 2, 6},
		{"half left out", 0.5, 4, 2, 3, 6, 5, 5, 2, 2},
		{"zero stays zero", 3, 0, 0, 0, 0, 1, 1, 3, 3},
	} {
		if got := toCounted(tc.replicas, tc.share); got != tc.counted {
			t.Errorf("%s: %d replicas are %d counted pods, want %d", tc.name, tc.replicas, got, tc.counted)
		}
		if got := toTemplate(tc.pods, tc.share); got != tc.back {
			t.Errorf("%s: %d counted pods are %d replicas, want %d", tc.name, tc.pods, got, tc.back)
		}
		lo, hi := boundsToCounted(tc.minR, tc.maxR, tc.share)
		if lo != tc.lo || hi != tc.hi {
			t.Errorf("%s: bounds %d-%d counted as %d-%d, want %d-%d", tc.name, tc.minR, tc.maxR, lo, hi, tc.lo, tc.hi)
		}
		// Any count within the counted bounds is within the bounds again
		// (the minimum only where it was not lowered to fit the maximum).
		exactMin := lo == max(1, int32(math.Ceil(float64(tc.minR)*tc.share-epsilon)))
		for pods := lo; pods <= hi; pods++ {
			if r := toTemplate(pods, tc.share); r > tc.maxR || (exactMin && r < tc.minR) {
				t.Errorf("%s: %d counted pods are %d replicas, outside %d-%d", tc.name, pods, r, tc.minR, tc.maxR)
			}
		}
	}
}

func TestCalibratedViewWritesTemplateReplicas(t *testing.T) {
	t.Parallel()
	h := &autoscalingv2.HorizontalPodAutoscaler{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", Annotations: map[string]string{"team": "a"}},
		Spec:       autoscalingv2.HorizontalPodAutoscalerSpec{MinReplicas: ptr.To[int32](1), MaxReplicas: 4},
		Status:     autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 4, DesiredReplicas: 4},
	}
	// A fraction: 4 replicas of which two thirds are counted.
	v := calibrated(h, 2.0/3, 4)
	if *v.Spec.MinReplicas != 1 || v.Spec.MaxReplicas != 2 || v.Status.CurrentReplicas != 3 {
		t.Errorf("view %+v %+v", v.Spec, v.Status)
	}
	if h.Spec.MaxReplicas != 4 || len(h.Annotations) != 1 {
		t.Error("the view shares memory with the informer's object")
	}
	v.Status.DesiredReplicas = 2
	back := uncalibratedStatus(v)
	if back.Status.CurrentReplicas != 4 || back.Status.DesiredReplicas != 3 {
		t.Errorf("status written %+v, want current 4 (the template's, exact) and desired 3", back.Status)
	}
	if len(back.Annotations) != 1 || back.Annotations["team"] != "a" {
		t.Errorf("annotations written %v, want only the user's", back.Annotations)
	}
	// Duplicated on two members, no binding replicas known.
	v = calibrated(&autoscalingv2.HorizontalPodAutoscaler{Spec: autoscalingv2.HorizontalPodAutoscalerSpec{MaxReplicas: 5},
		Status: autoscalingv2.HorizontalPodAutoscalerStatus{CurrentReplicas: 2}}, 2, -1)
	if *v.Spec.MinReplicas != 2 || v.Spec.MaxReplicas != 10 || v.Status.CurrentReplicas != 4 {
		t.Errorf("duplicated view %+v %+v", v.Spec, v.Status)
	}
	v.Status.DesiredReplicas = 7
	if back := uncalibratedStatus(v); back.Status.CurrentReplicas != 2 || back.Status.DesiredReplicas != 4 || back.Annotations != nil {
		t.Errorf("duplicated status written %+v %v", back.Status, back.Annotations)
	}
}
