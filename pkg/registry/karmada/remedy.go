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

	remedyv1alpha1 "github.com/mco-org/mco/pkg/apis/remedy/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/remedy/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// remedyResources serves remedy.karmada.io: the Remedy, cluster-scoped,
// without a status or short name (as in Karmada).
func remedyResources() []*resource.Spec {
	return []*resource.Spec{{
		Resource:       schema.GroupResource{Group: remedyv1alpha1.GroupName, Resource: remedyv1alpha1.ResourcePluralRemedy},
		Singular:       remedyv1alpha1.ResourceSingularRemedy,
		Kind:           remedyv1alpha1.ResourceKindRemedy,
		Version:        remedyv1alpha1.SchemeGroupVersion.Version,
		Categories:     []string{category},
		New:            func() runtime.Object { return &remedyv1alpha1.Remedy{} },
		NewList:        func() runtime.Object { return &remedyv1alpha1.RemedyList{} },
		Validate:       resource.Typed(validation.ValidateRemedy),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateRemedyUpdate),
	}}
}
