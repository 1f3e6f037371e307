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
	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	hpadefaults "k8s.io/kubernetes/pkg/apis/autoscaling/v2"
	"k8s.io/utils/ptr"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/autoscaling/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// autoscalingResources serves autoscaling.karmada.io: FederatedHPA (`fhpa`)
// and CronFederatedHPA (`cronfhpa`), namespaced, each with a status, with
// the columns of Karmada's CRDs.
func autoscalingResources() []*resource.Spec {
	fhpa := func(o runtime.Object) *autoscalingv1alpha1.FederatedHPA { return o.(*autoscalingv1alpha1.FederatedHPA) }
	cron := func(o runtime.Object) *autoscalingv1alpha1.CronFederatedHPA {
		return o.(*autoscalingv1alpha1.CronFederatedHPA)
	}
	return []*resource.Spec{{
		Resource:       schema.GroupResource{Group: autoscalingv1alpha1.GroupName, Resource: autoscalingv1alpha1.ResourcePluralFederatedHPA},
		Singular:       autoscalingv1alpha1.ResourceSingularFederatedHPA,
		Kind:           autoscalingv1alpha1.ResourceKindFederatedHPA,
		Version:        autoscalingv1alpha1.SchemeGroupVersion.Version,
		Namespaced:     true,
		HasStatus:      true,
		ShortNames:     []string{autoscalingv1alpha1.ResourceShortNameFederatedHPA},
		Categories:     []string{category},
		New:            func() runtime.Object { return &autoscalingv1alpha1.FederatedHPA{} },
		NewList:        func() runtime.Object { return &autoscalingv1alpha1.FederatedHPAList{} },
		Default:        func(o runtime.Object) { DefaultFederatedHPA(fhpa(o)) },
		Validate:       resource.Typed(validation.ValidateFederatedHPA),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateFederatedHPAUpdate),
		Columns: append(scaleTargetColumns(func(o runtime.Object) autoscalingv2.CrossVersionObjectReference { return fhpa(o).Spec.ScaleTargetRef }),
			resource.Column{Name: "MinPods", Type: "integer", Description: "Lower bound of the replicas.", Cell: func(o runtime.Object) any {
				if m := fhpa(o).Spec.MinReplicas; m != nil {
					return int64(*m)
				}
				return nil
			}},
			resource.Column{Name: "MaxPods", Type: "integer", Description: "Upper bound of the replicas.", Cell: func(o runtime.Object) any { return int64(fhpa(o).Spec.MaxReplicas) }},
			resource.Column{Name: "Replicas", Type: "integer", Description: "Replicas last seen.", Cell: func(o runtime.Object) any { return int64(fhpa(o).Status.CurrentReplicas) }},
		),
	}, {
		Resource:       schema.GroupResource{Group: autoscalingv1alpha1.GroupName, Resource: autoscalingv1alpha1.ResourcePluralCronFederatedHPA},
		Singular:       autoscalingv1alpha1.ResourceSingularCronFederatedHPA,
		Kind:           autoscalingv1alpha1.ResourceKindCronFederatedHPA,
		Version:        autoscalingv1alpha1.SchemeGroupVersion.Version,
		Namespaced:     true,
		HasStatus:      true,
		ShortNames:     []string{autoscalingv1alpha1.ResourceShortNameCronFederatedHPA},
		Categories:     []string{category},
		New:            func() runtime.Object { return &autoscalingv1alpha1.CronFederatedHPA{} },
		NewList:        func() runtime.Object { return &autoscalingv1alpha1.CronFederatedHPAList{} },
		Default:        func(o runtime.Object) { DefaultCronFederatedHPA(cron(o)) },
		Validate:       resource.Typed(validation.ValidateCronFederatedHPA),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateCronFederatedHPAUpdate),
		Columns:        scaleTargetColumns(func(o runtime.Object) autoscalingv2.CrossVersionObjectReference { return cron(o).Spec.ScaleTargetRef }),
	}}
}

// scaleTargetColumns print a scale target's kind and name.
func scaleTargetColumns(ref func(runtime.Object) autoscalingv2.CrossVersionObjectReference) []resource.Column {
	return []resource.Column{
		{Name: "Reference-Kind", Type: "string", Description: "Kind of the scaled resource.", Cell: func(o runtime.Object) any { return ref(o).Kind }},
		{Name: "Reference-Name", Type: "string", Description: "Name of the scaled resource.", Cell: func(o runtime.Object) any { return ref(o).Name }},
	}
}

// DefaultFederatedHPA sets what Karmada's webhook sets, with Kubernetes'
// own defaults of a HorizontalPodAutoscaler (autoscaling/v2): minReplicas
// 1, 80 % average CPU utilization when no metric is given, and the
// scale-up and scale-down rules of a behavior that leaves them out.
func DefaultFederatedHPA(f *autoscalingv1alpha1.FederatedHPA) {
	hpa := &autoscalingv2.HorizontalPodAutoscaler{Spec: validation.HPASpec(f.Spec)}
	hpadefaults.SetDefaults_HorizontalPodAutoscaler(hpa)
	f.Spec.MinReplicas, f.Spec.Metrics, f.Spec.Behavior = hpa.Spec.MinReplicas, hpa.Spec.Metrics, hpa.Spec.Behavior
}

// DefaultCronFederatedHPA sets each rule's unset suspend (false) and
// history limits (3), as Karmada's CRD schema does.
func DefaultCronFederatedHPA(c *autoscalingv1alpha1.CronFederatedHPA) {
	for i := range c.Spec.Rules {
		r := &c.Spec.Rules[i]
		if r.Suspend == nil {
			r.Suspend = ptr.To(false)
		}
		if r.SuccessfulHistoryLimit == nil {
			r.SuccessfulHistoryLimit = ptr.To[int32](3)
		}
		if r.FailedHistoryLimit == nil {
			r.FailedHistoryLimit = ptr.To[int32](3)
		}
	}
}
