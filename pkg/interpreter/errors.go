package interpreter

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// ScriptError is a customization's script failing: it erred, ran past its
// limits, or returned what the operation cannot use.
type ScriptError struct {
	Customization string
	Operation     configv1alpha1.InterpreterOperation
	Kind          schema.GroupVersionKind
	Err           error
}

func (e *ScriptError) Error() string {
	return fmt.Sprintf("%s of %s by ResourceInterpreterCustomization %q: %v", e.Operation, kindName(e.Kind), e.Customization, e.Err)
}

func (e *ScriptError) Unwrap() error { return e.Err }

// AsScriptError returns the ScriptError in err's chain, nil when none.
func AsScriptError(err error) *ScriptError {
	var se *ScriptError
	if errors.As(err, &se) {
		return se
	}
	return nil
}

func kindName(gvk schema.GroupVersionKind) string {
	return gvk.GroupVersion().String() + " " + gvk.Kind
}
