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

package karmada

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	appsv1alpha1 "github.com/mco-org/mco/pkg/apis/apps/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/apps/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// appsResources serves apps.karmada.io: the WorkloadRebalancer,
// cluster-scoped with a status, no short name (Karmada defines none).
func appsResources() []*resource.Spec {
	rebalancer := func(o runtime.Object) *appsv1alpha1.WorkloadRebalancer { return o.(*appsv1alpha1.WorkloadRebalancer) }
	wr := &resource.Spec{
		Resource: schema.GroupResource{Group: appsv1alpha1.GroupName, Resource: appsv1alpha1.ResourcePluralWorkloadRebalancer},
		Singular: appsv1alpha1.ResourceSingularWorkloadRebalancer,
		Kind:     appsv1alpha1.ResourceKindWorkloadRebalancer,
		Version:  appsv1alpha1.SchemeGroupVersion.Version,
		// Namespaced: false, as in Karmada.
		Categories:     []string{category},
		HasStatus:      true,
		New:            func() runtime.Object { return &appsv1alpha1.WorkloadRebalancer{} },
		NewList:        func() runtime.Object { return &appsv1alpha1.WorkloadRebalancerList{} },
		Validate:       resource.Typed(validation.ValidateWorkloadRebalancer),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateWorkloadRebalancerUpdate),
		Columns: []resource.Column{
			{Name: "Workloads", Type: "integer", Description: "Workloads to rebalance.",
				Cell: func(o runtime.Object) any { return int64(len(rebalancer(o).Spec.Workloads)) }},
			{Name: "Results", Type: "string", Description: "Workloads rebalanced and failed, of those observed.",
				Cell: func(o runtime.Object) any { return resultsCell(&rebalancer(o).Status) }},
			{Name: "Finished", Type: "string", Description: "Time since every workload had a result.",
				Cell: func(o runtime.Object) any {
					if t := rebalancer(o).Status.FinishTime; t != nil {
						return resource.HumanAge(*t)
					}
					return "<none>"
				}},
		},
	}
	return []*resource.Spec{wr}
}

// resultsCell counts results, as "2 Successful, 1 Failed".
func resultsCell(st *appsv1alpha1.WorkloadRebalancerStatus) string {
	ok, failed := 0, 0
	for _, w := range st.ObservedWorkloads {
		switch w.Result {
		case appsv1alpha1.RebalanceSuccessful:
			ok++
		case appsv1alpha1.RebalanceFailed:
			failed++
		}
	}
	return fmt.Sprintf("%d Successful, %d Failed", ok, failed)
}
