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
	"math"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

func cpuRange(lo, hi int64) ResourceModelRange {
	return ResourceModelRange{Name: corev1.ResourceCPU, Min: *resource.NewQuantity(lo, resource.DecimalSI), Max: *resource.NewQuantity(hi, resource.DecimalSI)}
}

func model(grade uint, ranges ...ResourceModelRange) ResourceModel {
	return ResourceModel{Grade: grade, Ranges: ranges}
}

func TestSetDefaultsCluster(t *testing.T) {
	t.Parallel()
	oneGrade := []ResourceModel{model(0, cpuRange(0, math.MaxInt64))}
	cases := []struct {
		name string
		in   ClusterSpec
		want ClusterSpec
	}{
		{
			name: "an empty spec gets the nine default resource models",
			in:   ClusterSpec{SyncMode: Push},
			want: ClusterSpec{SyncMode: Push, ResourceModels: DefaultResourceModels()},
		},
		{
			name: "a lone deprecated zone moves into zones",
			in:   ClusterSpec{Zone: "az-1", ResourceModels: oneGrade},
			want: ClusterSpec{Zones: []string{"az-1"}, ResourceModels: oneGrade},
		},
		{
			name: "zone and zones together are left for validation to reject",
			in:   ClusterSpec{Zone: "az-1", Zones: []string{"az-2"}, ResourceModels: oneGrade},
			want: ClusterSpec{Zone: "az-1", Zones: []string{"az-2"}, ResourceModels: oneGrade},
		},
		{
			name: "models given out of order are sorted by grade and their outer edges opened",
			in: ClusterSpec{ResourceModels: []ResourceModel{
				model(2, cpuRange(4, 8)), model(0, cpuRange(1, 2)), model(1, cpuRange(2, 4)),
			}},
			want: ClusterSpec{ResourceModels: []ResourceModel{
				model(0, cpuRange(0, 2)), model(1, cpuRange(2, 4)), model(2, cpuRange(4, math.MaxInt64)),
			}},
		},
		{
			name: "models that are already standard are not changed",
			in:   ClusterSpec{ResourceModels: DefaultResourceModels()},
			want: ClusterSpec{ResourceModels: DefaultResourceModels()},
		},
		{
			name: "models with equal grades keep their relative order",
			in:   ClusterSpec{ResourceModels: []ResourceModel{model(1, cpuRange(5, 6)), model(1, cpuRange(7, 8))}},
			want: ClusterSpec{ResourceModels: []ResourceModel{model(1, cpuRange(0, 6)), model(1, cpuRange(7, math.MaxInt64))}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cluster := &Cluster{Spec: *tc.in.DeepCopy()}
			SetDefaults_Cluster(cluster)
			if !apiequality.Semantic.DeepEqual(cluster.Spec, tc.want) {
				t.Fatalf("defaulted spec:\n got %+v\nwant %+v", cluster.Spec, tc.want)
			}
			again := cluster.DeepCopy()
			SetDefaults_Cluster(again)
			if !apiequality.Semantic.DeepEqual(again.Spec, cluster.Spec) {
				t.Fatalf("defaulting twice changed the spec again:\n once %+v\ntwice %+v", cluster.Spec, again.Spec)
			}
		})
	}
}

func TestDefaultResourceModelsMatchKarmadaGrades(t *testing.T) {
	t.Parallel()
	const gi = int64(1) << 30
	const top = int64(math.MaxInt64)
	want := []struct{ cpuMin, cpuMax, memMin, memMax int64 }{
		{0, 1, 0, 4 * gi}, {1, 2, 4 * gi, 16 * gi}, {2, 4, 16 * gi, 32 * gi},
		{4, 8, 32 * gi, 64 * gi}, {8, 16, 64 * gi, 128 * gi}, {16, 32, 128 * gi, 256 * gi},
		{32, 64, 256 * gi, 512 * gi}, {64, 128, 512 * gi, 1024 * gi}, {128, top, 1024 * gi, top},
	}
	got := DefaultResourceModels()
	if len(got) != len(want) {
		t.Fatalf("got %d default grades, want %d", len(got), len(want))
	}
	for i, w := range want {
		m := got[i]
		if m.Grade != uint(i) || len(m.Ranges) != 2 || m.Ranges[0].Name != corev1.ResourceCPU || m.Ranges[1].Name != corev1.ResourceMemory {
			t.Fatalf("grade %d has the wrong shape: %+v", i, m)
		}
		bounds := []int64{m.Ranges[0].Min.Value(), m.Ranges[0].Max.Value(), m.Ranges[1].Min.Value(), m.Ranges[1].Max.Value()}
		if bounds[0] != w.cpuMin || bounds[1] != w.cpuMax || bounds[2] != w.memMin || bounds[3] != w.memMax {
			t.Errorf("grade %d bounds = %v, want %+v", i, bounds, w)
		}
	}
	got[0].Ranges[0].Max.Set(99)
	if DefaultResourceModels()[0].Ranges[0].Max.Value() != 1 {
		t.Fatal("DefaultResourceModels must return a fresh copy each time")
	}
}

func TestSchemeAppliesClusterDefaults(t *testing.T) {
	t.Parallel()
	scheme := runtime.NewScheme()
	if err := AddToScheme(scheme); err != nil {
		t.Fatalf("AddToScheme: %v", err)
	}
	cases := []struct {
		name string
		obj  runtime.Object
		spec func(runtime.Object) []ClusterSpec
	}{
		{
			name: "a single Cluster is defaulted by the scheme",
			obj:  &Cluster{Spec: ClusterSpec{Zone: "z"}},
			spec: func(o runtime.Object) []ClusterSpec { return []ClusterSpec{o.(*Cluster).Spec} },
		},
		{
			name: "every item of a ClusterList is defaulted by the scheme",
			obj:  &ClusterList{Items: []Cluster{{Spec: ClusterSpec{Zone: "z"}}, {Spec: ClusterSpec{Zone: "z"}}}},
			spec: func(o runtime.Object) []ClusterSpec {
				l := o.(*ClusterList)
				return []ClusterSpec{l.Items[0].Spec, l.Items[1].Spec}
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			scheme.Default(tc.obj)
			for _, s := range tc.spec(tc.obj) {
				if s.Zone != "" || len(s.Zones) != 1 || len(s.ResourceModels) != 9 {
					t.Errorf("spec was not defaulted: %+v", s)
				}
			}
		})
	}
}

func TestStampNoExecuteTaints(t *testing.T) {
	t.Parallel()
	now := metav1.NewTime(time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC))
	earlier := metav1.NewTime(now.Add(-time.Hour))
	cases := []struct {
		name  string
		taint corev1.Taint
		want  *metav1.Time
	}{
		{name: "a NoExecute taint without a time gets now", taint: corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoExecute}, want: &now},
		{name: "a NoExecute taint keeps the time it already has", taint: corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoExecute, TimeAdded: &earlier}, want: &earlier},
		{name: "a NoSchedule taint gets no time", taint: corev1.Taint{Key: "k", Effect: corev1.TaintEffectNoSchedule}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			taints := []corev1.Taint{tc.taint}
			StampNoExecuteTaints(taints, now)
			StampNoExecuteTaints(taints, metav1.NewTime(now.Add(time.Hour)))
			if got := taints[0].TimeAdded; !apiequality.Semantic.DeepEqual(got, tc.want) {
				t.Errorf("timeAdded = %v, want %v", got, tc.want)
			}
		})
	}
}
