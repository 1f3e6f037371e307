// Package customizations holds mco-apiserver's admission of
// ResourceInterpreterCustomizations across objects: no two customizations
// of one kind may define the same operation (dependency rules excepted,
// which are merged).
package customizations

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/admission"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
)

// PluginName is the admission plugin refusing overlapping customizations.
const PluginName = "MCOInterpreterCustomizationOverlap"

// Overlap refuses a ResourceInterpreterCustomization defining an operation
// that another customization of the same target already defines, naming
// that customization, as Karmada's webhook does.
type Overlap struct {
	*admission.Handler
	client mcoclient.Interface
}

var _ admission.ValidationInterface = &Overlap{}

// NewOverlap lists the other customizations through client (a loopback
// client: each write of a customization reads them all, and such writes
// are rare).
func NewOverlap(client mcoclient.Interface) *Overlap {
	return &Overlap{Handler: admission.NewHandler(admission.Create, admission.Update), client: client}
}

// Validate implements admission.ValidationInterface.
func (o *Overlap) Validate(ctx context.Context, a admission.Attributes, _ admission.ObjectInterfaces) error {
	if a.GetResource().GroupResource() != configv1alpha1.Resource(configv1alpha1.ResourcePluralResourceInterpreterCustomization) || a.GetSubresource() != "" {
		return nil
	}
	ric, ok := a.GetObject().(*configv1alpha1.ResourceInterpreterCustomization)
	if !ok {
		return nil
	}
	others, err := o.client.ConfigV1alpha1().ResourceInterpreterCustomizations().List(ctx, metav1.ListOptions{})
	if err != nil {
		return apierrors.NewInternalError(fmt.Errorf("list the other ResourceInterpreterCustomizations: %w", err))
	}
	if errs := Overlaps(ric, others.Items); len(errs) > 0 {
		return apierrors.NewInvalid(a.GetKind().GroupKind(), a.GetName(), errs)
	}
	return nil
}

// Overlaps lists, as field errors, the operations of ric that another
// customization of the same target (by apiVersion and kind) defines.
// Dependency interpretation may be defined by several.
func Overlaps(ric *configv1alpha1.ResourceInterpreterCustomization, others []configv1alpha1.ResourceInterpreterCustomization) field.ErrorList {
	var errs field.ErrorList
	path := field.NewPath("spec", "customizations")
	for _, r := range ric.Spec.Customizations.Rules() {
		if !r.Set || r.Operation == configv1alpha1.InterpreterOperationInterpretDependency {
			continue
		}
		for i := range others {
			other := &others[i]
			if other.Name == ric.Name || other.Spec.Target != ric.Spec.Target {
				continue
			}
			if definesOperation(other, r.Operation) {
				errs = append(errs, field.Forbidden(path.Child(r.Field),
					fmt.Sprintf("%s of %s %s is already defined by ResourceInterpreterCustomization %q", r.Field,
						ric.Spec.Target.APIVersion, ric.Spec.Target.Kind, other.Name)))
				break
			}
		}
	}
	return errs
}

func definesOperation(ric *configv1alpha1.ResourceInterpreterCustomization, op configv1alpha1.InterpreterOperation) bool {
	for _, r := range ric.Spec.Customizations.Rules() {
		if r.Operation == op && r.Set {
			return true
		}
	}
	return false
}
