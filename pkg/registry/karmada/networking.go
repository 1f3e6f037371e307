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
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/networking/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// networkingResources serves networking.karmada.io: MultiClusterService
// (`mcs`, in Karmada's category) and MultiClusterIngress (`mci`),
// namespaced, each with a status, as Karmada's CRDs define them.
func networkingResources() []*resource.Spec {
	return []*resource.Spec{{
		Resource:       schema.GroupResource{Group: networkingv1alpha1.GroupName, Resource: networkingv1alpha1.ResourcePluralMultiClusterService},
		Singular:       networkingv1alpha1.ResourceSingularMultiClusterService,
		Kind:           networkingv1alpha1.ResourceKindMultiClusterService,
		Version:        networkingv1alpha1.SchemeGroupVersion.Version,
		Namespaced:     true,
		HasStatus:      true,
		ShortNames:     []string{networkingv1alpha1.ResourceShortNameMultiClusterService},
		Categories:     []string{category},
		New:            func() runtime.Object { return &networkingv1alpha1.MultiClusterService{} },
		NewList:        func() runtime.Object { return &networkingv1alpha1.MultiClusterServiceList{} },
		Validate:       resource.Typed(validation.ValidateMultiClusterService),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateMultiClusterServiceUpdate),
	}, {
		Resource:   schema.GroupResource{Group: networkingv1alpha1.GroupName, Resource: networkingv1alpha1.ResourcePluralMultiClusterIngress},
		Singular:   networkingv1alpha1.ResourceSingularMultiClusterIngress,
		Kind:       networkingv1alpha1.ResourceKindMultiClusterIngress,
		Version:    networkingv1alpha1.SchemeGroupVersion.Version,
		Namespaced: true,
		HasStatus:  true,
		ShortNames: []string{networkingv1alpha1.ResourceShortNameMultiClusterIngress},
		New:        func() runtime.Object { return &networkingv1alpha1.MultiClusterIngress{} },
		NewList:    func() runtime.Object { return &networkingv1alpha1.MultiClusterIngressList{} },
		Validate:   resource.Typed(validation.ValidateMultiClusterIngress),
	}}
}
