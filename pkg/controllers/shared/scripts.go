package shared

import (
	"context"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/record"
	"k8s.io/client-go/util/retry"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	"github.com/mco-org/mco/pkg/binding"
	"github.com/mco-org/mco/pkg/interpreter"
)

// ConditionInterpreted is the binding condition telling whether the
// ResourceInterpreterCustomization scripts of its kind ran: False names the
// failing operation and why. A binding whose scripts never failed carries
// none.
const ConditionInterpreted = "Interpreted"

// ReasonInterpreted is the reason of a True ConditionInterpreted.
const ReasonInterpreted = "ScriptsSucceeded"

// ScriptFailedReason is the reason of the Event and of the False condition
// for a failing operation, Karmada's where it has one.
func ScriptFailedReason(op configv1alpha1.InterpreterOperation) string {
	switch op {
	case configv1alpha1.InterpreterOperationInterpretStatus:
		return "ReflectStatusFailed"
	case configv1alpha1.InterpreterOperationInterpretDependency:
		return "GetDependenciesFailed"
	}
	return string(op) + "Failed"
}

// ScriptReporter records customization scripts failing, and recovering, on
// the bindings of the objects they ran for: a Warning Event and the
// Interpreted condition. It is shared by the controllers of a process.
type ScriptReporter struct {
	bindings *binding.Store
	recorder record.EventRecorder
	interp   *interpreter.Interpreter

	mu      sync.Mutex
	failing map[binding.Key]map[configv1alpha1.InterpreterOperation]string
}

// NewScriptReporter returns a reporter writing through bindings, for the
// scripts of interp.
func NewScriptReporter(bindings *binding.Store, recorder record.EventRecorder, interp *interpreter.Interpreter) *ScriptReporter {
	return &ScriptReporter{bindings: bindings, recorder: recorder, interp: interp,
		failing: map[binding.Key]map[configv1alpha1.InterpreterOperation]string{}}
}

// Report records the outcome of operation op for binding k, whose
// template is of kind gvk: err is what the interpreter returned (nil on
// success). Errors other than a script's are not reported here. It
// returns an error only when writing the condition fails.
func (r *ScriptReporter) Report(ctx context.Context, k binding.Key, gvk schema.GroupVersionKind, op configv1alpha1.InterpreterOperation, err error) error {
	if r == nil {
		return nil // mco-agent: bindings are not its to write
	}
	se := interpreter.AsScriptError(err)
	if err != nil && se == nil {
		return nil
	}
	r.mu.Lock()
	ops := r.failing[k]
	prev, wasFailing := ops[op]
	if se == nil && !wasFailing && !r.interp.Customized(gvk, op) {
		// mco's own rule answered, and no failure of this process is
		// to clear: nothing to look at.
		r.mu.Unlock()
		return nil
	}
	switch {
	case se != nil:
		if ops == nil {
			ops = map[configv1alpha1.InterpreterOperation]string{}
			r.failing[k] = ops
		}
		ops[op] = se.Error()
	case wasFailing:
		delete(ops, op)
		if len(ops) == 0 {
			delete(r.failing, k)
		}
	}
	r.mu.Unlock()

	if se != nil {
		if wasFailing && prev == se.Error() {
			return nil
		}
		return r.write(ctx, k, metav1.Condition{Type: ConditionInterpreted, Status: metav1.ConditionFalse,
			Reason: ScriptFailedReason(op), Message: se.Error()}, true)
	}
	if next, still := r.stillFailing(k); still {
		if wasFailing {
			return r.write(ctx, k, next, false)
		}
		return nil
	}
	// Recovered, here or (after a restart) as far as the stored condition
	// says: clear a False condition left by this operation.
	return r.write(ctx, k, metav1.Condition{Type: ConditionInterpreted, Status: metav1.ConditionTrue,
		Reason: ReasonInterpreted, Message: "The resource interpreter customizations of the kind ran."}, false, ScriptFailedReason(op))
}

// stillFailing returns the condition for another failing operation of k.
func (r *ScriptReporter) stillFailing(k binding.Key) (metav1.Condition, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for op, msg := range r.failing[k] {
		return metav1.Condition{Type: ConditionInterpreted, Status: metav1.ConditionFalse, Reason: ScriptFailedReason(op), Message: msg}, true
	}
	return metav1.Condition{}, false
}

// write sets the condition on binding k when it changes it; with
// onlyReplacing, only a condition with one of those reasons is replaced.
// event also records the condition's message as a Warning Event on the
// binding and its template.
func (r *ScriptReporter) write(ctx context.Context, k binding.Key, c metav1.Condition, event bool, onlyReplacing ...string) error {
	var v *binding.View
	err := retry.RetryOnConflict(retry.DefaultRetry, func() error {
		var err error
		if v == nil {
			v, err = r.bindings.Get(k)
		} else {
			v, err = r.bindings.GetLive(ctx, k)
		}
		if err != nil {
			return err
		}
		old := meta.FindStatusCondition(v.Status.Conditions, ConditionInterpreted)
		if len(onlyReplacing) > 0 && (old == nil || old.Status == metav1.ConditionTrue || !slices.Contains(onlyReplacing, old.Reason)) {
			return nil
		}
		c.ObservedGeneration = v.Meta.Generation
		if !meta.SetStatusCondition(&v.Status.Conditions, c) {
			return nil
		}
		return r.bindings.UpdateStatus(ctx, v)
	})
	if apierrors.IsNotFound(err) {
		err = nil // not created yet, or gone: the Event below says it
	}
	if event && c.Status == metav1.ConditionFalse {
		if v != nil {
			r.recorder.Event(v.Object(), corev1.EventTypeWarning, c.Reason, c.Message)
			r.recorder.Event(v.TemplateRef(), corev1.EventTypeWarning, c.Reason, c.Message)
		}
	}
	return err
}
