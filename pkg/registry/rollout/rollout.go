// Package rollout describes how mco-apiserver serves mco's own
// rollout.mco-org.github.io kinds: names, scope, defaults, validation,
// status subresources and table columns.
package rollout

import (
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/rollout/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// category groups mco's own kinds for `kubectl get mco`.
const category = "mco"

// Resources returns the specs of the rollout kinds.
func Resources() []*resource.Spec {
	gr := func(plural string) schema.GroupResource {
		return schema.GroupResource{Group: rolloutv1alpha1.GroupName, Resource: plural}
	}
	rp := &resource.Spec{
		Resource: gr(rolloutv1alpha1.ResourcePluralRolloutPolicy), Singular: rolloutv1alpha1.ResourceSingularRolloutPolicy,
		Kind: rolloutv1alpha1.ResourceKindRolloutPolicy, Version: rolloutv1alpha1.SchemeGroupVersion.Version, Namespaced: true,
		ShortNames: []string{rolloutv1alpha1.ResourceShortNameRolloutPolicy}, Categories: []string{category}, HasStatus: true,
		New:      func() runtime.Object { return &rolloutv1alpha1.RolloutPolicy{} },
		NewList:  func() runtime.Object { return &rolloutv1alpha1.RolloutPolicyList{} },
		Default:  func(o runtime.Object) { o.(*rolloutv1alpha1.RolloutPolicy).Spec.SetDefaults() },
		Validate: resource.Typed(validation.ValidateRolloutPolicy),
		Columns: policyColumns(func(o runtime.Object) (*rolloutv1alpha1.RolloutPolicySpec, *rolloutv1alpha1.RolloutPolicyStatus) {
			p := o.(*rolloutv1alpha1.RolloutPolicy)
			return &p.Spec, &p.Status
		}),
	}
	crp := &resource.Spec{
		Resource: gr(rolloutv1alpha1.ResourcePluralClusterRollout), Singular: rolloutv1alpha1.ResourceSingularClusterRollout,
		Kind: rolloutv1alpha1.ResourceKindClusterRolloutPolicy, Version: rolloutv1alpha1.SchemeGroupVersion.Version,
		ShortNames: []string{rolloutv1alpha1.ResourceShortNameClusterRollout}, Categories: []string{category}, HasStatus: true,
		New:      func() runtime.Object { return &rolloutv1alpha1.ClusterRolloutPolicy{} },
		NewList:  func() runtime.Object { return &rolloutv1alpha1.ClusterRolloutPolicyList{} },
		Default:  func(o runtime.Object) { o.(*rolloutv1alpha1.ClusterRolloutPolicy).Spec.SetDefaults() },
		Validate: resource.Typed(validation.ValidateClusterRolloutPolicy),
		Columns: policyColumns(func(o runtime.Object) (*rolloutv1alpha1.RolloutPolicySpec, *rolloutv1alpha1.RolloutPolicyStatus) {
			p := o.(*rolloutv1alpha1.ClusterRolloutPolicy)
			return &p.Spec, &p.Status
		}),
	}
	ro := func(o runtime.Object) *rolloutv1alpha1.Rollout { return o.(*rolloutv1alpha1.Rollout) }
	r := &resource.Spec{
		Resource: gr(rolloutv1alpha1.ResourcePluralRollout), Singular: rolloutv1alpha1.ResourceSingularRollout,
		Kind: rolloutv1alpha1.ResourceKindRollout, Version: rolloutv1alpha1.SchemeGroupVersion.Version, Namespaced: true,
		ShortNames: []string{rolloutv1alpha1.ResourceShortNameRollout}, Categories: []string{category}, HasStatus: true,
		New:            func() runtime.Object { return &rolloutv1alpha1.Rollout{} },
		NewList:        func() runtime.Object { return &rolloutv1alpha1.RolloutList{} },
		Validate:       resource.Typed(validation.ValidateRollout),
		ValidateUpdate: resource.TypedUpdate(validation.ValidateRolloutUpdate),
		Columns: []resource.Column{
			{Name: "Kind", Type: "string", Description: "Kind of the template.",
				Cell: func(o runtime.Object) any { return ro(o).Spec.Resource.Kind }},
			{Name: "Template", Type: "string", Description: "Name of the template.",
				Cell: func(o runtime.Object) any { return ro(o).Spec.Resource.Name }},
			{Name: "Revision", Type: "integer", Description: "Revision being rolled out.",
				Cell: func(o runtime.Object) any { return ro(o).Status.CurrentRevision }},
			{Name: "Stable", Type: "integer", Description: "Last revision that reached every cluster.",
				Cell: func(o runtime.Object) any { return ro(o).Status.StableRevision }},
			{Name: "Wave", Type: "string", Description: "Wave in progress.",
				Cell: func(o runtime.Object) any { return ro(o).Status.Wave }},
			{Name: "State", Type: "string", Description: "Complete, Progressing, Paused or Failed.",
				Cell: func(o runtime.Object) any { return ro(o).Status.State() }},
		},
	}
	return []*resource.Spec{rp, crp, r}
}

func policyColumns(get func(runtime.Object) (*rolloutv1alpha1.RolloutPolicySpec, *rolloutv1alpha1.RolloutPolicyStatus)) []resource.Column {
	return []resource.Column{
		{Name: "Waves", Type: "string", Description: "The waves, in order.",
			Cell: func(o runtime.Object) any {
				spec, _ := get(o)
				names := make([]string, len(spec.Waves))
				for i, w := range spec.Waves {
					names[i] = w.Name
				}
				return strings.Join(names, ",")
			}},
		{Name: "On-Failure", Type: "string", Description: "What a failed wave leads to.",
			Cell: func(o runtime.Object) any { spec, _ := get(o); return string(spec.OnFailure) }},
		{Name: "Rollouts", Type: "integer", Description: "Templates the policy governs.",
			Cell: func(o runtime.Object) any { _, st := get(o); return st.Rollouts }},
	}
}
