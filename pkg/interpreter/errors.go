package interpreter

import (
	"errors"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
)

// ScriptError is a customization's script failing (it erred, ran past its
// limits, or returned what the operation cannot use), or an interpreter
// webhook failing (unreachable, refusing, or answering out of form): what
// the user wrote to teach mco a kind does not work.
type ScriptError struct {
	Customization string
	// Webhook, when set, is the failing webhook, "<configuration>/<name>";
	// Customization is then empty.
	Webhook   string
	Operation configv1alpha1.InterpreterOperation
	Kind      schema.GroupVersionKind
	Err       error
}

func (e *ScriptError) Error() string {
	if e.Webhook != "" {
		return fmt.Sprintf("%s of %s by interpreter webhook %q: %v", e.Operation, kindName(e.Kind), e.Webhook, e.Err)
	}
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
