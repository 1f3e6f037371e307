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
	"math"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"

	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
)

const top = math.MaxInt64

func rng(name corev1.ResourceName, lo, hi int64) clusterv1alpha1.ResourceModelRange {
	return clusterv1alpha1.ResourceModelRange{
		Name: name, Min: *resource.NewQuantity(lo, resource.DecimalSI), Max: *resource.NewQuantity(hi, resource.DecimalSI),
	}
}

func grade(g uint, ranges ...clusterv1alpha1.ResourceModelRange) clusterv1alpha1.ResourceModel {
	return clusterv1alpha1.ResourceModel{Grade: g, Ranges: ranges}
}

func TestValidateClusterResourceModels(t *testing.T) {
	t.Parallel()
	cpu, mem := corev1.ResourceCPU, corev1.ResourceMemory
	const p = "spec.resourceModels"
	cases := []struct {
		name   string
		models []clusterv1alpha1.ResourceModel
		want   []wantErr
	}{
		{name: "the default models are valid", models: clusterv1alpha1.DefaultResourceModels()},
		{name: "no models at all is valid", models: nil},
		{name: "one grade spanning zero to the largest int64 is valid", models: []clusterv1alpha1.ResourceModel{grade(0, rng(cpu, 0, top))}},
		{name: "storage and ephemeral-storage are supported resources", models: []clusterv1alpha1.ResourceModel{
			grade(0, rng(corev1.ResourceStorage, 0, 10), rng(corev1.ResourceEphemeralStorage, 0, 10)),
			grade(3, rng(corev1.ResourceStorage, 10, top), rng(corev1.ResourceEphemeralStorage, 10, top)),
		}},
		{name: "two grades with the same number are rejected", models: []clusterv1alpha1.ResourceModel{
			grade(1, rng(cpu, 0, 2)), grade(1, rng(cpu, 2, top)),
		}, want: []wantErr{fe(field.ErrorTypeInvalid, p+"[1].grade")}},
		{name: "grades in decreasing order are rejected", models: []clusterv1alpha1.ResourceModel{
			grade(2, rng(cpu, 0, 2)), grade(1, rng(cpu, 2, top)),
		}, want: []wantErr{fe(field.ErrorTypeInvalid, p+"[1].grade")}},
		{name: "grades listing different numbers of resources are rejected once", models: []clusterv1alpha1.ResourceModel{
			grade(0, rng(cpu, 0, 2)), grade(1, rng(cpu, 2, top), rng(mem, 2, top)),
		}, want: []wantErr{fe(field.ErrorTypeInvalid, p+"[1].ranges")}},
		{name: "an unsupported resource name is rejected", models: []clusterv1alpha1.ResourceModel{grade(0, rng("gpu", 0, top))},
			want: []wantErr{fe(field.ErrorTypeNotSupported, p+"[0].ranges[0].name")}},
		{name: "a max not above its min is rejected", models: []clusterv1alpha1.ResourceModel{
			grade(0, rng(cpu, 0, 4)), grade(1, rng(cpu, 4, 4)), grade(2, rng(cpu, 4, top)),
		}, want: []wantErr{fe(field.ErrorTypeInvalid, p+"[1].ranges[0].max")}},
		{name: "a lowest grade not starting at zero is rejected", models: []clusterv1alpha1.ResourceModel{grade(0, rng(cpu, 1, top))},
			want: []wantErr{fe(field.ErrorTypeInvalid, p+"[0].ranges[0].min")}},
		{name: "a highest grade not ending at the largest int64 is rejected", models: []clusterv1alpha1.ResourceModel{grade(0, rng(cpu, 0, 2))},
			want: []wantErr{fe(field.ErrorTypeInvalid, p+"[0].ranges[0].max")}},
		{name: "resources listed in a different order from the grade before are rejected", models: []clusterv1alpha1.ResourceModel{
			grade(0, rng(cpu, 0, 2), rng(mem, 0, 2)), grade(1, rng(mem, 2, top), rng(cpu, 2, top)),
		}, want: []wantErr{fe(field.ErrorTypeInvalid, p+"[1].ranges[0].name"), fe(field.ErrorTypeInvalid, p+"[1].ranges[1].name")}},
		{name: "a gap between one grade's max and the next grade's min is rejected", models: []clusterv1alpha1.ResourceModel{
			grade(0, rng(cpu, 0, 2)), grade(1, rng(cpu, 3, top)),
		}, want: []wantErr{fe(field.ErrorTypeInvalid, p+"[1].ranges[0].min")}},
		{name: "an overlap between one grade's max and the next grade's min is rejected", models: []clusterv1alpha1.ResourceModel{
			grade(0, rng(cpu, 0, 2)), grade(1, rng(cpu, 1, top)),
		}, want: []wantErr{fe(field.ErrorTypeInvalid, p+"[1].ranges[0].min")}},
		{name: "equal bounds written in different units still touch", models: []clusterv1alpha1.ResourceModel{
			grade(0, clusterv1alpha1.ResourceModelRange{Name: cpu, Min: resource.MustParse("0"), Max: resource.MustParse("1")}),
			grade(1, clusterv1alpha1.ResourceModelRange{Name: cpu, Min: resource.MustParse("1000m"), Max: *resource.NewQuantity(top, resource.DecimalSI)}),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := validCluster()
			c.Spec.ResourceModels = tc.models
			assertErrors(t, ValidateCluster(c), tc.want...)
		})
	}
}

func TestDefaultingRepairsOuterEdgesAndOrder(t *testing.T) {
	t.Parallel()
	c := validCluster()
	c.Spec.ResourceModels = []clusterv1alpha1.ResourceModel{
		grade(5, rng(corev1.ResourceCPU, 4, 8)), grade(2, rng(corev1.ResourceCPU, 1, 4)),
	}
	clusterv1alpha1.SetDefaults_Cluster(c)
	assertErrors(t, ValidateCluster(c))
}
