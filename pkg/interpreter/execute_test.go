package interpreter_test

import (
	"context"
	"errors"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/interpreter"
)

var metav1Now = metav1.Now()

func TestParseOperation(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want configv1alpha1.InterpreterOperation
		err  bool
	}{
		{"retain", configv1alpha1.InterpreterOperationRetain, false},
		{"INTERPRETREPLICA", configv1alpha1.InterpreterOperationInterpretReplica, false},
		{"interpretComponent", configv1alpha1.InterpreterOperationInterpretComponent, false},
		{"scale", "", true},
		{"", "", true},
	} {
		got, err := interpreter.ParseOperation(tc.in)
		if got != tc.want || (err != nil) != tc.err {
			t.Errorf("ParseOperation(%q) = %q, %v", tc.in, got, err)
		}
	}
}

// TestExecuteMatchesControllers: Execute answers with the same calls the
// controllers make, and refuses operations no customization gives.
func TestExecuteMatchesControllers(t *testing.T) {
	interp, obj := webApp(t)
	ctx := context.Background()
	res, err := interp.Execute(ctx, configv1alpha1.InterpreterOperationInterpretReplica, interpreter.Args{Desired: obj})
	if err != nil {
		t.Fatal(err)
	}
	w, err := interp.Interpret(ctx, obj)
	if err != nil {
		t.Fatal(err)
	}
	if res[0].Value != w.Replicas || res[1].Name != "requires" {
		t.Errorf("Execute InterpretReplica = %+v, Interpret = %+v", res, w)
	}
	_, err = interp.Execute(ctx, configv1alpha1.InterpreterOperationInterpretComponent, interpreter.Args{Desired: obj})
	if !errors.Is(err, interpreter.ErrNotCustomized) {
		t.Errorf("InterpretComponent without a script: %v, want ErrNotCustomized", err)
	}
	deploy := obj.DeepCopy()
	deploy.SetAPIVersion("apps/v1")
	deploy.SetKind("Deployment")
	if _, err := interp.Execute(ctx, configv1alpha1.InterpreterOperationInterpretHealth, interpreter.Args{Observed: deploy}); !errors.Is(err, interpreter.ErrNotCustomized) {
		t.Errorf("a kind without customization: %v, want ErrNotCustomized", err)
	}
}
