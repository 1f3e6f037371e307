package interpreter

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/workload"
)

// Args are the inputs of one operation run on its own, as `kubectl mco
// interpret` gives them.
type Args struct {
	// Desired is the template (desiredObj); Observed a member's object
	// (observedObj).
	Desired, Observed *unstructured.Unstructured
	// Status are the members' reports for AggregateStatus.
	Status []workv1alpha2.AggregatedStatusItem
	// Replica is ReviseReplica's desiredReplica.
	Replica int32
}

// Result is one named answer of an operation.
type Result struct {
	Name  string
	Value any
}

// ErrNotCustomized is returned by Execute for an operation no
// customization gives for the object's kind.
var ErrNotCustomized = errors.New("rule is not enabled")

// Operations lists the operations Execute runs, in the order of
// CustomizationRules' fields.
func Operations() []configv1alpha1.InterpreterOperation {
	var out []configv1alpha1.InterpreterOperation
	for _, r := range (&configv1alpha1.CustomizationRules{}).Rules() {
		out = append(out, r.Operation)
	}
	return out
}

// ParseOperation finds an operation by name, ignoring case.
func ParseOperation(name string) (configv1alpha1.InterpreterOperation, error) {
	var names []string
	for _, op := range Operations() {
		if strings.EqualFold(name, string(op)) {
			return op, nil
		}
		names = append(names, string(op))
	}
	return "", fmt.Errorf("operation %s is not supported. Use one of: %s", name, strings.Join(names, ", "))
}

// Execute runs one operation of the customizations on its own, through
// the same calls the controllers make, and returns its named answers
// (Karmada's names: retained, replica and requires, components, revised,
// status, aggregatedStatus, healthy, dependencies). Scripts answer first,
// then webhooks; mco's built-in rules do not answer here: an operation
// that neither gives for the object's kind is ErrNotCustomized.
func (i *Interpreter) Execute(ctx context.Context, op configv1alpha1.InterpreterOperation, args Args) ([]Result, error) {
	if op == configv1alpha1.InterpreterOperationRetain {
		if args.Desired == nil {
			return nil, errors.New("desired, desired-file options are not set")
		}
		if args.Observed == nil {
			return nil, errors.New("observed, observed-file options are not set")
		}
		if err := i.customized(args.Desired, op); err != nil {
			return nil, err
		}
		retained, err := i.Retain(ctx, args.Desired.DeepCopy(), args.Observed)
		return one("retained", retained, err)
	}
	obj, err := args.object()
	if err != nil {
		return nil, err
	}
	if err := i.customized(obj, op); err != nil {
		return nil, err
	}
	switch op {
	case configv1alpha1.InterpreterOperationInterpretReplica:
		var in workload.Interpretation
		if sc := i.script(obj, op); sc != nil {
			in, err = i.replicas(ctx, sc, obj)
		} else {
			in, err = hookReplicas(ctx, i.hook(obj, op), obj)
		}
		if err != nil {
			return nil, err
		}
		return []Result{{"replica", in.Replicas}, {"requires", in.Requirements}}, nil
	case configv1alpha1.InterpreterOperationInterpretComponent:
		var in workload.Interpretation
		if sc := i.script(obj, op); sc != nil {
			in, err = i.components(ctx, sc, obj)
		} else {
			in, err = hookComponents(ctx, i.hook(obj, op), obj)
		}
		return one("components", in.Components, err)
	case configv1alpha1.InterpreterOperationReviseReplica:
		revised, err := i.ReviseReplicas(ctx, obj.DeepCopy(), args.Replica)
		return one("revised", revised, err)
	case configv1alpha1.InterpreterOperationInterpretStatus:
		status, err := i.ReflectStatus(ctx, obj)
		return one("status", status, err)
	case configv1alpha1.InterpreterOperationAggregateStatus:
		// The object as the script returns it, as karmadactl prints it
		// (a script may clear spec); the controllers take its status.
		if sc := i.script(obj, op); sc != nil {
			out, err := runAggregateStatus(ctx, i.vm, sc, obj.DeepCopy(), args.Status)
			return one("aggregatedStatus", out, err)
		}
		out, err := hookAggregated(ctx, i.hook(obj, op), obj.DeepCopy(), args.Status)
		return one("aggregatedStatus", out, err)
	case configv1alpha1.InterpreterOperationInterpretHealth:
		health, err := i.Health(ctx, obj)
		return one("healthy", health == workv1alpha2.ResourceHealthy, err)
	case configv1alpha1.InterpreterOperationInterpretDependency:
		deps, err := i.Dependencies(ctx, obj)
		return one("dependencies", deps, err)
	}
	return nil, fmt.Errorf("operation %q is not supported", op)
}

// customized refuses an operation no customization or webhook gives for
// obj's kind.
func (i *Interpreter) customized(obj *unstructured.Unstructured, op configv1alpha1.InterpreterOperation) error {
	if !i.Customized(obj.GroupVersionKind(), op) {
		return fmt.Errorf("%w: no customization or webhook gives %s for %s", ErrNotCustomized, op, obj.GroupVersionKind())
	}
	return nil
}

// object is the one object an operation other than Retain takes.
func (a Args) object() (*unstructured.Unstructured, error) {
	switch {
	case a.Desired == nil && a.Observed == nil:
		return nil, errors.New("desired-file, observed-file options are not set")
	case a.Desired != nil && a.Observed != nil:
		return nil, errors.New("you can not specify both desired-file and observed-file options")
	case a.Desired != nil:
		return a.Desired, nil
	}
	return a.Observed, nil
}

func one(name string, value any, err error) ([]Result, error) {
	if err != nil {
		return nil, err
	}
	return []Result{{name, value}}, nil
}
