// Package addon describes how mco-apiserver serves the
// addons.mco-org.github.io kinds: names, scope, defaults, validation, the
// status subresource and table columns.
package addon

import (
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/addons/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// category groups mco's own kinds for `kubectl get mco`.
const category = "mco"

// Resources returns the specs of the add-on kinds.
func Resources() []*resource.Spec {
	a := func(o runtime.Object) *addonsv1alpha1.Addon { return o.(*addonsv1alpha1.Addon) }
	return []*resource.Spec{{
		Resource: schema.GroupResource{Group: addonsv1alpha1.GroupName, Resource: addonsv1alpha1.ResourcePluralAddon},
		Singular: addonsv1alpha1.ResourceSingularAddon, Kind: addonsv1alpha1.ResourceKindAddon,
		Version: addonsv1alpha1.SchemeGroupVersion.Version, ShortNames: []string{addonsv1alpha1.ResourceShortNameAddon},
		Categories: []string{category}, HasStatus: true,
		New:      func() runtime.Object { return &addonsv1alpha1.Addon{} },
		NewList:  func() runtime.Object { return &addonsv1alpha1.AddonList{} },
		Default:  func(o runtime.Object) { a(o).SetDefaults() },
		Validate: resource.Typed(validation.ValidateAddon),
		Columns: []resource.Column{
			{Name: "Chart", Type: "string", Description: "The chart's name.",
				Cell: func(o runtime.Object) any { return a(o).Spec.Chart.Name }},
			{Name: "Version", Type: "string", Description: "The chart's version.",
				Cell: func(o runtime.Object) any { return a(o).Spec.Chart.Version }},
			{Name: "Healthy", Type: "string", Description: "Clusters where the add-on is Healthy, of those it is placed on.",
				Cell: func(o runtime.Object) any { return healthy(&a(o).Status) }},
		},
	}}
}

// healthy is "healthy/placed" over the add-on's clusters.
func healthy(st *addonsv1alpha1.AddonStatus) string {
	n := 0
	for _, c := range st.Clusters {
		if c.Phase == addonsv1alpha1.PhaseHealthy {
			n++
		}
	}
	return fmt.Sprintf("%d/%d", n, len(st.Clusters))
}
