package extensions

import (
	"context"
	"fmt"

	"k8s.io/apiextensions-apiserver/pkg/apis/apiextensions"
	structuralschema "k8s.io/apiextensions-apiserver/pkg/apiserver/schema"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"
)

// SelectableFields refuses, before validation runs, a CRD whose
// selectableFields come with a schema that is missing or not structural:
// Kubernetes' validation of such a CRD dereferences the schema it failed to
// build, and the request ends in a reset connection instead of an error.
type SelectableFields struct {
	*admission.Handler
}

var _ admission.MutationInterface = &SelectableFields{}

// NewSelectableFields builds the check.
func NewSelectableFields() *SelectableFields {
	return &SelectableFields{Handler: admission.NewHandler(admission.Create, admission.Update)}
}

// Admit implements admission.MutationInterface; it changes nothing.
func (s *SelectableFields) Admit(_ context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != apiextensions.Resource("customresourcedefinitions") || a.GetSubresource() != "" {
		return nil
	}
	crd, ok := a.GetObject().(*apiextensions.CustomResourceDefinition)
	if !ok {
		return nil
	}
	if errs := unbuildableSelectableFields(&crd.Spec); len(errs) > 0 {
		return apierrors.NewInvalid(a.GetKind().GroupKind(), a.GetName(), errs)
	}
	return nil
}

// unbuildableSelectableFields lists the versions whose selectable fields
// come with a schema Kubernetes' validation cannot build and then
// dereferences: a per-version schema that is not structural, or a shared
// (spec-level, when every version agrees) schema that is empty or not
// structural. Missing schemas Kubernetes reports itself.
func unbuildableSelectableFields(spec *apiextensions.CustomResourceDefinitionSpec) field.ErrorList {
	var errs field.ErrorList
	versions := field.NewPath("spec", "versions")
	for i, v := range spec.Versions {
		if len(v.SelectableFields) == 0 || v.Schema == nil || v.Schema.OpenAPIV3Schema == nil {
			continue
		}
		if why := unstructural(v.Schema.OpenAPIV3Schema); why != "" {
			errs = append(errs, field.Invalid(versions.Index(i).Child("selectableFields"), "", why))
		}
	}
	if len(spec.SelectableFields) == 0 || spec.Validation == nil {
		return errs
	}
	why := "may only be set with a schema.openAPIV3Schema"
	if spec.Validation.OpenAPIV3Schema != nil {
		why = unstructural(spec.Validation.OpenAPIV3Schema)
	}
	if why == "" {
		return errs
	}
	for i := range spec.Versions {
		errs = append(errs, field.Invalid(versions.Index(i).Child("selectableFields"), "", why))
	}
	return errs
}

// unstructural says why a schema is not structural, or "".
func unstructural(schema *apiextensions.JSONSchemaProps) string {
	if _, err := structuralschema.NewStructural(schema); err != nil {
		return fmt.Sprintf("may only be set with a structural schema.openAPIV3Schema: %v", err)
	}
	return ""
}
