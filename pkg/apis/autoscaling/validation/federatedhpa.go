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

// Package validation checks autoscaling.karmada.io objects before they are
// stored, with Karmada's field paths.
package validation

import (
	"fmt"

	autoscalingv2 "k8s.io/api/autoscaling/v2"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/autoscaling"
	autoscalingapiv2 "k8s.io/kubernetes/pkg/apis/autoscaling/v2"
	hpavalidation "k8s.io/kubernetes/pkg/apis/autoscaling/validation"

	autoscalingv1alpha1 "github.com/mco-org/mco/pkg/apis/autoscaling/v1alpha1"
)

// ValidateFederatedHPA checks a FederatedHPA with Kubernetes' own
// validation of a HorizontalPodAutoscaler (autoscaling/v2) of the same
// metadata and spec, as Karmada's webhook does: minReplicas at least 1,
// maxReplicas set and not below it, a scale target with kind, name and an
// API version, well-formed metrics and behavior.
func ValidateFederatedHPA(fhpa *autoscalingv1alpha1.FederatedHPA) field.ErrorList {
	return validateAsHPA(fhpa, nil)
}

// ValidateFederatedHPAUpdate checks an update as a create, except that a
// scale target whose kind and API version did not change is not checked
// for its API version again (as for an HPA).
func ValidateFederatedHPAUpdate(fhpa, old *autoscalingv1alpha1.FederatedHPA) field.ErrorList {
	return validateAsHPA(fhpa, old)
}

func validateAsHPA(fhpa, old *autoscalingv1alpha1.FederatedHPA) field.ErrorList {
	hpa, err := asHPA(fhpa)
	if err != nil {
		return field.ErrorList{field.InternalError(field.NewPath("spec"), err)}
	}
	opts := hpavalidation.HorizontalPodAutoscalerSpecValidationOptions{
		MinReplicasLowerBound:           1,
		ScaleTargetRefValidationOptions: hpavalidation.CrossVersionObjectReferenceValidationOptions{AllowEmptyAPIGroup: true},
		ObjectMetricsValidationOptions:  hpavalidation.CrossVersionObjectReferenceValidationOptions{AllowEmptyAPIGroup: true},
	}
	if old != nil && old.Spec.ScaleTargetRef.APIVersion == fhpa.Spec.ScaleTargetRef.APIVersion &&
		old.Spec.ScaleTargetRef.Kind == fhpa.Spec.ScaleTargetRef.Kind {
		opts.ScaleTargetRefValidationOptions.AllowInvalidAPIVersion = true
	}
	return hpavalidation.ValidateHorizontalPodAutoscaler(hpa, opts)
}

// asHPA is the HorizontalPodAutoscaler, in Kubernetes' internal form, of
// a FederatedHPA's metadata and spec.
func asHPA(fhpa *autoscalingv1alpha1.FederatedHPA) (*autoscaling.HorizontalPodAutoscaler, error) {
	in := &autoscalingv2.HorizontalPodAutoscaler{ObjectMeta: fhpa.ObjectMeta, Spec: HPASpec(fhpa.Spec)}
	out := &autoscaling.HorizontalPodAutoscaler{}
	if err := autoscalingapiv2.Convert_v2_HorizontalPodAutoscaler_To_autoscaling_HorizontalPodAutoscaler(in, out, nil); err != nil {
		return nil, fmt.Errorf("convert FederatedHPA %s/%s to a HorizontalPodAutoscaler: %w", fhpa.Namespace, fhpa.Name, err)
	}
	return out, nil
}

// HPASpec is the HorizontalPodAutoscaler spec a FederatedHPA spec stands
// for (the two hold the same fields).
func HPASpec(spec autoscalingv1alpha1.FederatedHPASpec) autoscalingv2.HorizontalPodAutoscalerSpec {
	return autoscalingv2.HorizontalPodAutoscalerSpec{
		ScaleTargetRef: spec.ScaleTargetRef,
		MinReplicas:    spec.MinReplicas,
		MaxReplicas:    spec.MaxReplicas,
		Metrics:        spec.Metrics,
		Behavior:       spec.Behavior,
	}
}
