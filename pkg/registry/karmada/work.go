package karmada

import (
	"encoding/json"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/apis/work/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// statusPath is where status validation errors point.
var statusPath = field.NewPath("status")

// bindingColumns are shared by ResourceBinding and ClusterResourceBinding.
func bindingColumns(conds func(runtime.Object) []metav1.Condition) []resource.Column {
	return []resource.Column{
		{Name: "Scheduled", Type: "string", Description: "Whether the scheduler has placed the binding.",
			Cell: func(o runtime.Object) any { return conditionStatus(conds(o), workv1alpha2.Scheduled) }},
		{Name: "FullyApplied", Type: "string", Description: "Whether the resource is applied on every chosen cluster.",
			Cell: func(o runtime.Object) any { return conditionStatus(conds(o), workv1alpha2.FullyApplied) }},
	}
}

func workResources() []*resource.Spec {
	rb := &resource.Spec{
		Resource:       schema.GroupResource{Group: workv1alpha2.GroupName, Resource: "resourcebindings"},
		Singular:       "resourcebinding",
		Kind:           "ResourceBinding",
		Version:        workv1alpha2.SchemeGroupVersion.Version,
		Namespaced:     true,
		ShortNames:     []string{"rb"},
		Categories:     []string{category},
		HasStatus:      true,
		New:            func() runtime.Object { return &workv1alpha2.ResourceBinding{} },
		NewList:        func() runtime.Object { return &workv1alpha2.ResourceBindingList{} },
		OnCreate:       onCreate(permanentID(workv1alpha2.ResourceBindingPermanentIDLabel)),
		Validate:       resource.Typed(validation.ValidateResourceBinding),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateResourceBindingUpdate),
		ValidateStatus: resource.TypedUpdate(func(rb, _ *workv1alpha2.ResourceBinding) field.ErrorList {
			return validation.ValidateResourceBindingStatus(&rb.Status, statusPath)
		}),
		Columns: bindingColumns(func(o runtime.Object) []metav1.Condition {
			return o.(*workv1alpha2.ResourceBinding).Status.Conditions
		}),
	}
	crb := &resource.Spec{
		Resource:       schema.GroupResource{Group: workv1alpha2.GroupName, Resource: "clusterresourcebindings"},
		Singular:       "clusterresourcebinding",
		Kind:           "ClusterResourceBinding",
		Version:        workv1alpha2.SchemeGroupVersion.Version,
		ShortNames:     []string{"crb"},
		Categories:     []string{category},
		HasStatus:      true,
		New:            func() runtime.Object { return &workv1alpha2.ClusterResourceBinding{} },
		NewList:        func() runtime.Object { return &workv1alpha2.ClusterResourceBindingList{} },
		OnCreate:       onCreate(permanentID(workv1alpha2.ClusterResourceBindingPermanentIDLabel)),
		Validate:       resource.Typed(validation.ValidateClusterResourceBinding),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateClusterResourceBindingUpdate),
		ValidateStatus: resource.TypedUpdate(func(crb, _ *workv1alpha2.ClusterResourceBinding) field.ErrorList {
			return validation.ValidateResourceBindingStatus(&crb.Status, statusPath)
		}),
		Columns: bindingColumns(func(o runtime.Object) []metav1.Condition {
			return o.(*workv1alpha2.ClusterResourceBinding).Status.Conditions
		}),
	}
	work := &resource.Spec{
		Resource:       schema.GroupResource{Group: workv1alpha1.GroupName, Resource: "works"},
		Singular:       "work",
		Kind:           "Work",
		Version:        workv1alpha1.SchemeGroupVersion.Version,
		Namespaced:     true,
		ShortNames:     []string{"wk"},
		Categories:     []string{category},
		HasStatus:      true,
		New:            func() runtime.Object { return &workv1alpha1.Work{} },
		NewList:        func() runtime.Object { return &workv1alpha1.WorkList{} },
		OnCreate:       onCreate(permanentID(workv1alpha1.WorkPermanentIDLabel)),
		Validate:       resource.Typed(validation.ValidateWork),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateWorkUpdate),
		ValidateStatus: resource.TypedUpdate(func(w, _ *workv1alpha1.Work) field.ErrorList {
			return validation.ValidateWorkStatus(&w.Status, statusPath)
		}),
		Columns: []resource.Column{
			{Name: "Workload-Kind", Type: "string", Description: "Kinds of the manifests the Work carries.",
				Cell: func(o runtime.Object) any { return workloadKinds(o.(*workv1alpha1.Work)) }},
			{Name: "Applied", Type: "string", Description: "Whether the manifests are applied on the member cluster.",
				Cell: func(o runtime.Object) any {
					return conditionStatus(o.(*workv1alpha1.Work).Status.Conditions, workv1alpha1.WorkApplied)
				}},
		},
	}
	return []*resource.Spec{rb, crb, work}
}

// workloadKinds lists the kinds of a Work's manifests, comma-separated.
func workloadKinds(w *workv1alpha1.Work) string {
	kinds := make([]string, 0, len(w.Spec.Workload.Manifests))
	for _, m := range w.Spec.Workload.Manifests {
		var tm metav1.TypeMeta
		if err := json.Unmarshal(m.Raw, &tm); err == nil && tm.Kind != "" {
			kinds = append(kinds, tm.Kind)
		}
	}
	return strings.Join(kinds, ",")
}
