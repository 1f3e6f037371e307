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

// Package validation checks networking.karmada.io objects before they are
// stored.
package validation

import (
	"slices"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	"k8s.io/apimachinery/pkg/util/sets"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	clustervalidation "github.com/mco-org/mco/pkg/apis/cluster/validation"
	networkingv1alpha1 "github.com/mco-org/mco/pkg/apis/networking/v1alpha1"
)

var exposureTypes = []string{string(networkingv1alpha1.ExposureTypeCrossCluster), string(networkingv1alpha1.ExposureTypeLoadBalancer)}

// ValidateMultiClusterService checks a MultiClusterService as Karmada's
// webhook does: its name is a Service's (a DNS-1035 label); one exposure
// type, CrossCluster or LoadBalancer; ports with unique DNS-1123 label
// names and numbers 1-65535; cluster names that could name a Cluster (a
// cluster that has not joined is accepted: the status says so).
func ValidateMultiClusterService(mcs *networkingv1alpha1.MultiClusterService) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&mcs.ObjectMeta, true, apivalidation.NameIsDNS1035Label, field.NewPath("metadata"))
	spec := field.NewPath("spec")
	allErrs = append(allErrs, validateTypes(mcs.Spec.Types, spec.Child("types"))...)
	names := sets.New[string]()
	for i, p := range mcs.Spec.Ports {
		path := spec.Child("ports").Index(i)
		if p.Name != "" {
			for _, msg := range validation.IsDNS1123Label(p.Name) {
				allErrs = append(allErrs, field.Invalid(path.Child("name"), p.Name, msg))
			}
			if names.Has(p.Name) {
				allErrs = append(allErrs, field.Duplicate(path.Child("name"), p.Name))
			}
			names.Insert(p.Name)
		}
		for _, msg := range validation.IsValidPortNum(int(p.Port)) {
			allErrs = append(allErrs, field.Invalid(path.Child("port"), p.Port, msg))
		}
	}
	allErrs = append(allErrs, validateClusterNames(mcs.Spec.Range.ClusterNames, spec.Child("range", "clusterNames"))...)
	allErrs = append(allErrs, validateClusterNames(mcs.Spec.ServiceProvisionClusters, spec.Child("serviceProvisionClusters"))...)
	allErrs = append(allErrs, validateClusterNames(mcs.Spec.ServiceConsumptionClusters, spec.Child("serviceConsumptionClusters"))...)
	allErrs = append(allErrs, validateSelectors(mcs.Spec.ProviderClusters, spec.Child("providerClusters"))...)
	allErrs = append(allErrs, validateSelectors(mcs.Spec.ConsumerClusters, spec.Child("consumerClusters"))...)
	return allErrs
}

// ValidateMultiClusterServiceUpdate also keeps types as they were.
func ValidateMultiClusterServiceUpdate(mcs, old *networkingv1alpha1.MultiClusterService) field.ErrorList {
	allErrs := ValidateMultiClusterService(mcs)
	if !slices.Equal(mcs.Spec.Types, old.Spec.Types) {
		allErrs = append(allErrs, field.Invalid(field.NewPath("spec", "types"), mcs.Spec.Types, "MultiClusterService types are immutable"))
	}
	return allErrs
}

func validateTypes(types []networkingv1alpha1.ExposureType, path *field.Path) field.ErrorList {
	if len(types) == 0 {
		return field.ErrorList{field.Required(path, "one of "+strings.Join(exposureTypes, ", "))}
	}
	var allErrs field.ErrorList
	distinct := sets.New[networkingv1alpha1.ExposureType]()
	for i, t := range types {
		if !slices.Contains(exposureTypes, string(t)) {
			allErrs = append(allErrs, field.NotSupported(path.Index(i), t, exposureTypes))
		}
		distinct.Insert(t)
	}
	if distinct.Len() > 1 {
		allErrs = append(allErrs, field.Invalid(path, types, "MultiClusterService types should not contain more than one type"))
	}
	return allErrs
}

func validateClusterNames(names []string, path *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, name := range names {
		if msgs := clustervalidation.ValidateClusterName(name, false); len(msgs) > 0 {
			allErrs = append(allErrs, field.Invalid(path.Index(i), name, strings.Join(msgs, ", ")))
		}
	}
	return allErrs
}

func validateSelectors(selectors []networkingv1alpha1.ClusterSelector, path *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	for i, s := range selectors {
		if msgs := clustervalidation.ValidateClusterName(s.Name, false); len(msgs) > 0 {
			allErrs = append(allErrs, field.Invalid(path.Index(i).Child("name"), s.Name, strings.Join(msgs, ", ")))
		}
	}
	return allErrs
}
