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

// Package validation checks work.karmada.io objects: ResourceBinding and ClusterResourceBinding
// (v1alpha2) and Work (v1alpha1). The rules are those of Karmada's CRD schemas plus the
// invariants its controllers rely on. Every function is pure and returns exact field paths.
package validation

import (
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"

	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	policyvalidation "github.com/mco-org/mco/pkg/apis/policy/validation"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
)

var (
	supportedConflictResolutions = []string{string(policyv1alpha1.ConflictAbort), string(policyv1alpha1.ConflictOverwrite)}
	supportedHealth              = []string{
		string(workv1alpha2.ResourceHealthy), string(workv1alpha2.ResourceUnhealthy), string(workv1alpha2.ResourceUnknown),
	}
)

// ValidateResourceBinding checks a namespaced ResourceBinding on create.
func ValidateResourceBinding(rb *workv1alpha2.ResourceBinding) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&rb.ObjectMeta, true, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, ValidateResourceBindingSpec(&rb.Spec, field.NewPath("spec"))...)
	return append(allErrs, ValidateResourceBindingStatus(&rb.Status, field.NewPath("status"))...)
}

// ValidateResourceBindingUpdate checks a ResourceBinding on update.
func ValidateResourceBindingUpdate(newRB, oldRB *workv1alpha2.ResourceBinding) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMetaUpdate(&newRB.ObjectMeta, &oldRB.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, ValidateResourceBinding(newRB)...)
}

// ValidateClusterResourceBinding checks a cluster-scoped ClusterResourceBinding on create.
func ValidateClusterResourceBinding(crb *workv1alpha2.ClusterResourceBinding) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMeta(&crb.ObjectMeta, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	allErrs = append(allErrs, ValidateResourceBindingSpec(&crb.Spec, field.NewPath("spec"))...)
	return append(allErrs, ValidateResourceBindingStatus(&crb.Status, field.NewPath("status"))...)
}

// ValidateClusterResourceBindingUpdate checks a ClusterResourceBinding on update.
func ValidateClusterResourceBindingUpdate(newCRB, oldCRB *workv1alpha2.ClusterResourceBinding) field.ErrorList {
	allErrs := apivalidation.ValidateObjectMetaUpdate(&newCRB.ObjectMeta, &oldCRB.ObjectMeta, field.NewPath("metadata"))
	return append(allErrs, ValidateClusterResourceBinding(newCRB)...)
}

// ValidateResourceBindingSpec checks the spec shared by both binding kinds.
func ValidateResourceBindingSpec(spec *workv1alpha2.ResourceBindingSpec, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList

	res := fldPath.Child("resource")
	if spec.Resource.APIVersion == "" {
		allErrs = append(allErrs, field.Required(res.Child("apiVersion"), ""))
	}
	if spec.Resource.Kind == "" {
		allErrs = append(allErrs, field.Required(res.Child("kind"), ""))
	}
	if spec.Resource.Name == "" {
		allErrs = append(allErrs, field.Required(res.Child("name"), ""))
	}

	allErrs = append(allErrs, apivalidation.ValidateNonnegativeField(int64(spec.Replicas), fldPath.Child("replicas"))...)
	allErrs = append(allErrs, validateComponents(spec.Components, fldPath.Child("components"))...)
	allErrs = append(allErrs, validateTargetClusters(spec.Clusters, fldPath.Child("clusters"))...)
	if spec.Placement != nil {
		allErrs = append(allErrs, policyvalidation.ValidatePlacement(spec.Placement, fldPath.Child("placement"))...)
	}
	for i := range spec.GracefulEvictionTasks {
		allErrs = append(allErrs, validateEvictionTask(&spec.GracefulEvictionTasks[i], fldPath.Child("gracefulEvictionTasks").Index(i))...)
	}
	for i, snap := range spec.RequiredBy {
		p := fldPath.Child("requiredBy").Index(i)
		if snap.Name == "" {
			allErrs = append(allErrs, field.Required(p.Child("name"), ""))
		}
		allErrs = append(allErrs, validateTargetClusters(snap.Clusters, p.Child("clusters"))...)
	}
	switch spec.ConflictResolution {
	case "", policyv1alpha1.ConflictAbort, policyv1alpha1.ConflictOverwrite:
	default:
		allErrs = append(allErrs, field.NotSupported(fldPath.Child("conflictResolution"), spec.ConflictResolution, supportedConflictResolutions))
	}
	return allErrs
}

// validateComponents checks the per-pod-template entries of a multi-template workload.
func validateComponents(components []workv1alpha2.Component, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := make(map[string]bool, len(components))
	for i, c := range components {
		p := fldPath.Index(i)
		allErrs = append(allErrs, requiredUniqueName(c.Name, seen, p.Child("name"))...)
		allErrs = append(allErrs, apivalidation.ValidateNonnegativeField(int64(c.Replicas), p.Child("replicas"))...)
	}
	return allErrs
}

// validateTargetClusters checks a scheduling result: every cluster named once, no negative
// replica counts, and per cluster every component named once.
func validateTargetClusters(clusters []workv1alpha2.TargetCluster, fldPath *field.Path) field.ErrorList {
	var allErrs field.ErrorList
	seen := make(map[string]bool, len(clusters))
	for i, tc := range clusters {
		p := fldPath.Index(i)
		allErrs = append(allErrs, requiredUniqueName(tc.Name, seen, p.Child("name"))...)
		allErrs = append(allErrs, apivalidation.ValidateNonnegativeField(int64(tc.Replicas), p.Child("replicas"))...)
		seenComponents := make(map[string]bool, len(tc.Components))
		for k, c := range tc.Components {
			cp := p.Child("components").Index(k)
			allErrs = append(allErrs, requiredUniqueName(c.Name, seenComponents, cp.Child("name"))...)
			allErrs = append(allErrs, apivalidation.ValidateNonnegativeField(int64(c.Replicas), cp.Child("replicas"))...)
		}
	}
	return allErrs
}

// requiredUniqueName reports an empty name, or a name already recorded in seen, and records it.
func requiredUniqueName(name string, seen map[string]bool, p *field.Path) field.ErrorList {
	if name == "" {
		return field.ErrorList{field.Required(p, "")}
	}
	if seen[name] {
		return field.ErrorList{field.Duplicate(p, name)}
	}
	seen[name] = true
	return nil
}

// ValidateResourceBindingStatus checks the status both binding kinds share.
func ValidateResourceBindingStatus(status *workv1alpha2.ResourceBindingStatus, fldPath *field.Path) field.ErrorList {
	allErrs := metav1validation.ValidateConditions(status.Conditions, fldPath.Child("conditions"))
	allErrs = append(allErrs, apivalidation.ValidateNonnegativeField(status.SchedulerObservedGeneration, fldPath.Child("schedulerObservedGeneration"))...)
	for i, item := range status.AggregatedStatus {
		p := fldPath.Child("aggregatedStatus").Index(i)
		if item.ClusterName == "" {
			allErrs = append(allErrs, field.Required(p.Child("clusterName"), ""))
		}
		switch item.Health {
		case "", workv1alpha2.ResourceHealthy, workv1alpha2.ResourceUnhealthy, workv1alpha2.ResourceUnknown:
		default:
			allErrs = append(allErrs, field.NotSupported(p.Child("health"), item.Health, supportedHealth))
		}
	}
	return allErrs
}
