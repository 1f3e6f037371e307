package interpreter

import (
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

func customization(name, kind, healthScript string) *configv1alpha1.ResourceInterpreterCustomization {
	return &configv1alpha1.ResourceInterpreterCustomization{ObjectMeta: metav1.ObjectMeta{Name: name},
		Spec: configv1alpha1.ResourceInterpreterCustomizationSpec{
			Target: configv1alpha1.CustomizationTarget{APIVersion: "example.com/v1", Kind: kind},
			Customizations: configv1alpha1.CustomizationRules{
				HealthInterpretation: &configv1alpha1.HealthInterpretation{LuaScript: healthScript},
			},
		}}
}

// TestNewSetReusesCompiledScripts: a reload compiles only the scripts
// that are new, and keeps only those in use.
func TestNewSetReusesCompiledScripts(t *testing.T) {
	const healthy = "function InterpretHealth(obj) return true end"
	health := configv1alpha1.InterpreterOperationInterpretHealth
	widget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Widget"}
	gadget := schema.GroupVersionKind{Group: "example.com", Version: "v1", Kind: "Gadget"}

	first, compiled, errs := newSet([]*configv1alpha1.ResourceInterpreterCustomization{customization("a", "Widget", healthy), customization("b", "Gadget", healthy)}, nil)
	if len(errs) > 0 || len(compiled) != 2 {
		t.Fatalf("first set: %v, %d compiled", errs, len(compiled))
	}
	// b changes, a does not.
	second, compiled, errs := newSet([]*configv1alpha1.ResourceInterpreterCustomization{customization("a", "Widget", healthy),
		customization("b", "Gadget", "function InterpretHealth(obj) return false end")}, compiled)
	if len(errs) > 0 {
		t.Fatal(errs)
	}
	if second.script(widget, health).compiled != first.script(widget, health).compiled {
		t.Error("an unchanged script was compiled again")
	}
	if second.script(gadget, health).compiled == first.script(gadget, health).compiled {
		t.Error("a changed script kept its old compilation")
	}
	// a goes: its compilation is not kept.
	_, compiled, _ = newSet([]*configv1alpha1.ResourceInterpreterCustomization{customization("b", "Gadget", healthy)}, compiled)
	if len(compiled) != 1 {
		t.Errorf("%d compiled scripts kept for one customization, want 1", len(compiled))
	}
}
