// Package validation checks config.karmada.io objects.
package validation

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation/field"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter/lua"
)

// scriptVM runs the scripts validation loads: the same sandbox, time limit
// and memory bound as the controllers'.
var scriptVM = lua.NewVM()

// ValidateResourceInterpreterCustomization checks a customization on its
// own: a target naming a kind, and for each rule given a script that
// compiles and, run in the sandbox, defines the rule's function.
func ValidateResourceInterpreterCustomization(ric *configv1alpha1.ResourceInterpreterCustomization) field.ErrorList {
	var errs field.ErrorList
	spec := field.NewPath("spec")
	errs = append(errs, validateTarget(ric.Spec.Target, spec.Child("target"))...)
	rules := spec.Child("customizations")
	for _, r := range ric.Spec.Customizations.Rules() {
		if !r.Set {
			continue
		}
		errs = append(errs, ValidateScript(r, rules.Child(r.Field, "luaScript"))...)
	}
	return errs
}

func validateTarget(t configv1alpha1.CustomizationTarget, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if t.APIVersion == "" {
		errs = append(errs, field.Required(path.Child("apiVersion"), "the target's API version, such as apps/v1"))
	} else if gv, err := schema.ParseGroupVersion(t.APIVersion); err != nil || gv.Version == "" {
		errs = append(errs, field.Invalid(path.Child("apiVersion"), t.APIVersion, "must be group/version, or a version alone for the core group"))
	}
	if t.Kind == "" {
		errs = append(errs, field.Required(path.Child("kind"), "the target's kind, such as Deployment"))
	}
	return errs
}

// ValidateScript checks one rule's script: it must not be empty, must
// compile, and must define the rule's function when run in the sandbox.
func ValidateScript(r configv1alpha1.ScriptRule, path *field.Path) field.ErrorList {
	if r.Script == "" {
		return field.ErrorList{field.Required(path, fmt.Sprintf("a Lua script defining function %s", r.Function))}
	}
	script, err := lua.Compile(r.Field, r.Script)
	if err != nil {
		return field.ErrorList{field.Invalid(path, "<script>", fmt.Sprintf("the Lua script does not compile: %v", err))}
	}
	if err := scriptVM.Defines(context.Background(), script, r.Function); err != nil {
		return field.ErrorList{field.Invalid(path, "<script>", fmt.Sprintf("the Lua script must define function %s: %v", r.Function, err))}
	}
	return nil
}
