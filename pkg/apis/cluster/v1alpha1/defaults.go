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
	"sort"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// gibibyte is 2^30 bytes, the unit of the memory bounds in the default resource models.
const gibibyte int64 = 1 << 30

// defaultModelBounds lists, grade by grade, the lower edge of the cpu (cores) and memory (GiB)
// interval of each default resource model. The upper edge of a grade is the lower edge of the
// next one; the last grade is open-ended (math.MaxInt64). These are the grades Karmada fills in
// when a Cluster is created without resourceModels.
var defaultModelBounds = []struct{ cpuCores, memoryGiB int64 }{
	{0, 0}, {1, 4}, {2, 16}, {4, 32}, {8, 64}, {16, 128}, {32, 256}, {64, 512}, {128, 1024},
}

func addDefaultingFuncs(scheme *runtime.Scheme) error {
	scheme.AddTypeDefaultingFunc(&Cluster{}, func(obj interface{}) { SetDefaults_Cluster(obj.(*Cluster)) })
	scheme.AddTypeDefaultingFunc(&ClusterList{}, func(obj interface{}) {
		list := obj.(*ClusterList)
		for i := range list.Items {
			SetDefaults_Cluster(&list.Items[i])
		}
	})
	return nil
}

// SetDefaults_Cluster fills in what Karmada fills in for a Cluster before storing it: the
// deprecated spec.zone moves into spec.zones when zones is empty, an empty spec.resourceModels
// gets the default grades, and a non-empty one is put in canonical order with open outer edges.
// Applying it twice changes nothing more than applying it once. The name follows the
// defaulter-gen convention so a generated SetObjectDefaults_Cluster could call it.
func SetDefaults_Cluster(cluster *Cluster) {
	MigrateZoneToZones(&cluster.Spec)
	if len(cluster.Spec.ResourceModels) == 0 {
		cluster.Spec.ResourceModels = DefaultResourceModels()
		return
	}
	StandardizeResourceModels(cluster.Spec.ResourceModels)
}

// MigrateZoneToZones moves the deprecated single zone into the zones list, but only when the list
// is empty; when both are set the spec is left alone so validation can reject it.
func MigrateZoneToZones(spec *ClusterSpec) {
	if spec.Zone == "" || len(spec.Zones) != 0 {
		return
	}
	spec.Zones = []string{spec.Zone}
	spec.Zone = ""
}

// DefaultResourceModels returns a fresh copy of the default grades: nine cpu/memory intervals,
// grade 0 starting at zero and grade 8 reaching math.MaxInt64.
func DefaultResourceModels() []ResourceModel {
	models := make([]ResourceModel, len(defaultModelBounds))
	for grade, low := range defaultModelBounds {
		cpuHigh, memHigh := int64(math.MaxInt64), int64(math.MaxInt64)
		if grade+1 < len(defaultModelBounds) {
			next := defaultModelBounds[grade+1]
			cpuHigh, memHigh = next.cpuCores, next.memoryGiB*gibibyte
		}
		models[grade] = ResourceModel{
			Grade: uint(grade),
			Ranges: []ResourceModelRange{
				{
					Name: corev1.ResourceCPU,
					Min:  *resource.NewQuantity(low.cpuCores, resource.DecimalSI),
					Max:  *resource.NewQuantity(cpuHigh, resource.DecimalSI),
				},
				{
					Name: corev1.ResourceMemory,
					Min:  *resource.NewQuantity(low.memoryGiB*gibibyte, resource.BinarySI),
					Max:  *resource.NewQuantity(memHigh, resource.BinarySI),
				},
			},
		}
	}
	return models
}

// StandardizeResourceModels sorts the models by grade (keeping the given order among equal
// grades, which validation then rejects), sets every lower bound of the lowest grade to zero and
// every upper bound of the highest grade to math.MaxInt64. It works in place.
func StandardizeResourceModels(models []ResourceModel) {
	if len(models) == 0 {
		return
	}
	sort.SliceStable(models, func(i, j int) bool { return models[i].Grade < models[j].Grade })
	lowest, highest := models[0].Ranges, models[len(models)-1].Ranges
	for i := range lowest {
		lowest[i].Min.Set(0)
	}
	for i := range highest {
		highest[i].Max.Set(math.MaxInt64)
	}
}

// StampNoExecuteTaints records now as the time each NoExecute taint without a timeAdded was
// added, as Karmada does when it stores a Cluster. It is not part of scheme defaulting because it
// depends on the clock; the registry strategy should call it with its own clock.
func StampNoExecuteTaints(taints []corev1.Taint, now metav1.Time) {
	for i := range taints {
		if taints[i].Effect == corev1.TaintEffectNoExecute && taints[i].TimeAdded == nil {
			stamp := now
			taints[i].TimeAdded = &stamp
		}
	}
}
