package karmada

import (
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/apis/config/validation"
	"github.com/mco-org/mco/pkg/registry/resource"
)

// configResources serves ResourceInterpreterCustomization and
// ResourceInterpreterWebhookConfiguration: cluster-scoped, no status, no
// short name for the latter (as in Karmada). That no two customizations of a kind define the same
// operation is checked by admission, which sees the others.
func configResources() []*resource.Spec {
	ric := func(o runtime.Object) *configv1alpha1.ResourceInterpreterCustomization {
		return o.(*configv1alpha1.ResourceInterpreterCustomization)
	}
	return []*resource.Spec{{
		Resource:   schema.GroupResource{Group: configv1alpha1.GroupName, Resource: configv1alpha1.ResourcePluralResourceInterpreterCustomization},
		Singular:   configv1alpha1.ResourceSingularResourceInterpreterCustomization,
		Kind:       configv1alpha1.ResourceKindResourceInterpreterCustomization,
		Version:    configv1alpha1.SchemeGroupVersion.Version,
		ShortNames: []string{configv1alpha1.ResourceShortNameResourceInterpreterCustomization},
		Categories: []string{category},
		New:        func() runtime.Object { return &configv1alpha1.ResourceInterpreterCustomization{} },
		NewList:    func() runtime.Object { return &configv1alpha1.ResourceInterpreterCustomizationList{} },
		Validate:   resource.Typed(validation.ValidateResourceInterpreterCustomization),
		Columns: []resource.Column{
			{Name: "Target-API-Version", Type: "string", Description: "API version of the kind the scripts interpret.",
				Cell: func(o runtime.Object) any { return ric(o).Spec.Target.APIVersion }},
			{Name: "Target-Kind", Type: "string", Description: "Kind the scripts interpret.",
				Cell: func(o runtime.Object) any { return ric(o).Spec.Target.Kind }},
		},
	}, {
		Resource:   schema.GroupResource{Group: configv1alpha1.GroupName, Resource: configv1alpha1.ResourcePluralResourceInterpreterWebhookConfiguration},
		Singular:   configv1alpha1.ResourceSingularResourceInterpreterWebhookConfiguration,
		Kind:       configv1alpha1.ResourceKindResourceInterpreterWebhookConfiguration,
		Version:    configv1alpha1.SchemeGroupVersion.Version,
		Categories: []string{category},
		New:        func() runtime.Object { return &configv1alpha1.ResourceInterpreterWebhookConfiguration{} },
		NewList:    func() runtime.Object { return &configv1alpha1.ResourceInterpreterWebhookConfigurationList{} },
		Validate:   resource.Typed(validation.ValidateResourceInterpreterWebhookConfiguration),
	}}
}
