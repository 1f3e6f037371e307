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
	"fmt"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/kubernetes/pkg/apis/networking"
	networkingv1 "k8s.io/kubernetes/pkg/apis/networking/v1"
	networkingvalidation "k8s.io/kubernetes/pkg/apis/networking/validation"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
)

// ValidateMultiClusterIngress checks a MultiClusterIngress's spec as
// kube-apiserver checks an Ingress's, with Kubernetes' own validation.
func ValidateMultiClusterIngress(mci *networkingv1alpha1.MultiClusterIngress) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&mci.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	var spec networking.IngressSpec
	if err := networkingv1.Convert_v1_IngressSpec_To_networking_IngressSpec(&mci.Spec, &spec, nil); err != nil {
		return append(allErrs, field.InternalError(field.NewPath("spec"), fmt.Errorf("convert the ingress spec: %w", err)))
	}
	return append(allErrs, networkingvalidation.ValidateIngressSpec(&spec, field.NewPath("spec"), networkingvalidation.IngressValidationOptions{})...)
}
