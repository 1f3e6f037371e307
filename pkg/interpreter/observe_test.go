package interpreter

import (
	"context"
	"reflect"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter/lua"
)

// TestObserveIsStatusAndHealth: Observe answers what ReflectStatus and
// Health answer apart, whether mco's own rules, a script or a webhook
// interprets the kind, and whichever of the two is customized.
func TestObserveIsStatusAndHealth(t *testing.T) {
	t.Parallel()
	deployment := func() *unstructured.Unstructured {
		return &unstructured.Unstructured{Object: map[string]any{"apiVersion": "apps/v1", "kind": "Deployment",
			"metadata": map[string]any{"name": "d", "namespace": "ns", "generation": int64(2)},
			"spec":     map[string]any{"replicas": int64(3)},
			"status":   map[string]any{"observedGeneration": int64(2), "replicas": int64(3), "updatedReplicas": int64(3), "availableReplicas": int64(2)}}}
	}
	broken := deployment()
	broken.Object["spec"] = map[string]any{"replicas": "three"}
	scripted := func(t *testing.T) *Interpreter {
		set, errs := NewSet([]*configv1alpha1.ResourceInterpreterCustomization{customization("lua", "Widget", "function InterpretHealth(obj) return false end")})
		if len(errs) > 0 {
			t.Fatal(errs)
		}
		i := New(lua.NewVM(), nil)
		i.SetCustomizations(set)
		return i
	}
	for _, tc := range []struct {
		name   string
		interp func(t *testing.T) *Interpreter
		obj    *unstructured.Unstructured
	}{
		{"a Deployment by mco's rules", func(*testing.T) *Interpreter { return New(lua.NewVM(), nil) }, deployment()},
		{"a Deployment that cannot be decoded", func(*testing.T) *Interpreter { return New(lua.NewVM(), nil) }, broken},
		{"a kind without rules", func(*testing.T) *Interpreter { return New(lua.NewVM(), nil) }, widget(2, map[string]any{"ok": true})},
		{"health by a script", scripted, widget(2, map[string]any{"ok": true})},
		{"health by a webhook", func(t *testing.T) *Interpreter {
			return hookedInterpreter(t, configv1alpha1.InterpreterOperationInterpretHealth)
		}, widget(1, map[string]any{"ok": false})},
		{"status by a webhook", func(t *testing.T) *Interpreter {
			return hookedInterpreter(t, configv1alpha1.InterpreterOperationInterpretStatus)
		}, widget(4, nil)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			i := tc.interp(t)
			wantStatus, wantStatusErr := i.ReflectStatus(ctx, tc.obj)
			wantHealth, wantHealthErr := i.Health(ctx, tc.obj)
			status, statusErr, health, healthErr := i.Observe(ctx, tc.obj)
			if !reflect.DeepEqual(status, wantStatus) || (statusErr != nil) != (wantStatusErr != nil) ||
				health != wantHealth || (healthErr != nil) != (wantHealthErr != nil) {
				t.Errorf("Observe = %v, %v, %s, %v; apart: %v, %v, %s, %v",
					status, statusErr, health, healthErr, wantStatus, wantStatusErr, wantHealth, wantHealthErr)
			}
		})
	}
}
