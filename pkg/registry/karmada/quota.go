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
	"sort"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/policy/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// quotaResource serves FederatedResourceQuota: namespaced, with a status,
// no short name (Karmada defines none).
func quotaResource() *resource.Spec {
	frq := policyResource(policyv1alpha1.ResourcePluralFederatedResourceQuota, policyv1alpha1.ResourceSingularFederatedResourceQuota,
		policyv1alpha1.ResourceKindFederatedResourceQuota, policyv1alpha1.ResourceNamespaceScopedFederatedResourceQuota, "")
	frq.HasStatus = true
	frq.New = func() runtime.Object { return &policyv1alpha1.FederatedResourceQuota{} }
	frq.NewList = func() runtime.Object { return &policyv1alpha1.FederatedResourceQuotaList{} }
	frq.Validate = resource.Typed(validation.ValidateFederatedResourceQuota)
	quota := func(o runtime.Object) *policyv1alpha1.FederatedResourceQuota {
		return o.(*policyv1alpha1.FederatedResourceQuota)
	}
	frq.Columns = []resource.Column{
		{Name: "Overall", Type: "string", Description: "The overall limit in force.",
			Cell: func(o runtime.Object) any { return resourcesCell(quota(o).Status.Overall) }},
		{Name: "Overall-Used", Type: "string", Description: "What the placed workloads use.",
			Cell: func(o runtime.Object) any { return resourcesCell(quota(o).Status.OverallUsed) }},
	}
	return frq
}

// resourcesCell renders a resource list as "cpu: 2, memory: 4Gi", sorted
// by name, as kubectl describes a ResourceQuota.
func resourcesCell(list corev1.ResourceList) string {
	names := make([]string, 0, len(list))
	for n := range list {
		names = append(names, string(n))
	}
	sort.Strings(names)
	parts := make([]string, len(names))
	for i, n := range names {
		q := list[corev1.ResourceName(n)]
		parts[i] = n + ": " + q.String()
	}
	return strings.Join(parts, ", ")
}
