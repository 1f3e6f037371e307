// Package interpreter answers what mco needs to know of a resource
// template's kind: its replicas and what one needs, how to set a member's
// share, what of a member's object to keep, what status to report and sum,
// whether it is healthy, and what it depends on. As in Karmada,
// ResourceInterpreterCustomizations (Lua scripts) answer first, then the
// webhooks of ResourceInterpreterWebhookConfigurations, then mco's own
// rules (package workload).
package interpreter

import (
	"context"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/interpreter/lua"
	"github.com/mco-org/mco/pkg/interpreter/webhook"
	"github.com/mco-org/mco/pkg/mcs"
	"github.com/mco-org/mco/pkg/workload"
)

// Interpreter answers for every kind. It is safe for concurrent use; its
// customizations can be replaced while it is used.
type Interpreter struct {
	vm    *lua.VM
	set   atomic.Pointer[Set]
	hooks atomic.Pointer[webhook.Set]
}

// New returns an interpreter with the customizations of set (nil: none)
// running on vm.
func New(vm *lua.VM, set *Set) *Interpreter {
	i := &Interpreter{vm: vm}
	i.set.Store(set)
	return i
}

// Default returns an interpreter with mco's own rules only.
func Default() *Interpreter { return New(lua.NewVM(), nil) }

// Customizations returns the customizations in use.
func (i *Interpreter) Customizations() *Set { return i.set.Load() }

// SetCustomizations replaces the customizations in use.
func (i *Interpreter) SetCustomizations(s *Set) { i.set.Store(s) }

// Webhooks returns the interpreter webhooks in use (nil: none).
func (i *Interpreter) Webhooks() *webhook.Set { return i.hooks.Load() }

// SetWebhooks replaces the interpreter webhooks in use.
func (i *Interpreter) SetWebhooks(s *webhook.Set) { i.hooks.Store(s) }

func (i *Interpreter) script(obj *unstructured.Unstructured, op configv1alpha1.InterpreterOperation) *script {
	return i.set.Load().script(obj.GroupVersionKind(), op)
}

// Customized tells whether a customization script or a webhook answers op
// for kind gvk, rather than mco's own rules.
func (i *Interpreter) Customized(gvk schema.GroupVersionKind, op configv1alpha1.InterpreterOperation) bool {
	return i.set.Load().Defines(gvk, op) || i.hooks.Load().Hook(gvk, op) != nil
}

// hook is the webhook that answers op for obj's kind when no script does.
func (i *Interpreter) hook(obj *unstructured.Unstructured, op configv1alpha1.InterpreterOperation) *webhook.Hook {
	return i.hooks.Load().Hook(obj.GroupVersionKind(), op)
}

// Interpret reads a template's replicas and the requirements of one
// replica, or its components. A componentResource customization answers
// first (the binding's components; its replicas stay 0, as in Karmada),
// then a replicaResource one, then a webhook answering InterpretComponent,
// then one answering InterpretReplica, then mco's rules.
func (i *Interpreter) Interpret(ctx context.Context, obj *unstructured.Unstructured) (workload.Interpretation, error) {
	if sc := i.script(obj, configv1alpha1.InterpreterOperationInterpretComponent); sc != nil {
		return i.components(ctx, sc, obj)
	}
	if sc := i.script(obj, configv1alpha1.InterpreterOperationInterpretReplica); sc != nil {
		return i.replicas(ctx, sc, obj)
	}
	if h := i.hook(obj, configv1alpha1.InterpreterOperationInterpretComponent); h != nil {
		return hookComponents(ctx, h, obj)
	}
	if h := i.hook(obj, configv1alpha1.InterpreterOperationInterpretReplica); h != nil {
		return hookReplicas(ctx, h, obj)
	}
	return workload.Interpret(obj)
}

// components runs a componentResource script.
func (i *Interpreter) components(ctx context.Context, sc *script, obj *unstructured.Unstructured) (workload.Interpretation, error) {
	components, err := runGetComponents(ctx, i.vm, sc, obj)
	if err != nil {
		return workload.Interpretation{}, err
	}
	return workload.Interpretation{Components: components}, nil
}

// replicas runs a replicaResource script. The requirements are what the
// script returned, as in Karmada: a script that wants the namespace in
// them sets it (requires.namespace = observedObj.metadata.namespace).
func (i *Interpreter) replicas(ctx context.Context, sc *script, obj *unstructured.Unstructured) (workload.Interpretation, error) {
	replicas, req, err := runGetReplicas(ctx, i.vm, sc, obj)
	if err != nil {
		return workload.Interpretation{}, err
	}
	return workload.Interpretation{Replicated: true, Replicas: replicas, Requirements: req}, nil
}

// ReviseReplicas returns a member's copy of obj with its share of the
// replicas.
func (i *Interpreter) ReviseReplicas(ctx context.Context, obj *unstructured.Unstructured, replicas int32) (*unstructured.Unstructured, error) {
	if sc := i.script(obj, configv1alpha1.InterpreterOperationReviseReplica); sc != nil {
		return runReviseReplica(ctx, i.vm, sc, obj, int64(replicas))
	}
	if h := i.hook(obj, configv1alpha1.InterpreterOperationReviseReplica); h != nil {
		return hookReviseReplicas(ctx, h, obj, replicas)
	}
	if err := workload.ReviseReplicas(obj, replicas); err != nil {
		return nil, err
	}
	return obj, nil
}

// Retains tells whether applying desired keeps some of the member's
// fields, so that the member's object must be read first.
func (i *Interpreter) Retains(desired *unstructured.Unstructured) bool {
	return i.script(desired, configv1alpha1.InterpreterOperationRetain) != nil ||
		i.hook(desired, configv1alpha1.InterpreterOperationRetain) != nil || workload.Retains(desired)
}

// Retain returns what to apply over observed, the member's object: desired
// with the fields the member owns.
func (i *Interpreter) Retain(ctx context.Context, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	if sc := i.script(desired, configv1alpha1.InterpreterOperationRetain); sc != nil {
		return runRetain(ctx, i.vm, sc, desired, observed)
	}
	if h := i.hook(desired, configv1alpha1.InterpreterOperationRetain); h != nil {
		return hookRetain(ctx, h, desired, observed)
	}
	if err := workload.Retain(desired, observed); err != nil {
		return nil, err
	}
	return desired, nil
}

// ReflectStatus returns what of a member object's status is reported.
func (i *Interpreter) ReflectStatus(ctx context.Context, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	if sc := i.script(obj, configv1alpha1.InterpreterOperationInterpretStatus); sc != nil {
		return runReflectStatus(ctx, i.vm, sc, obj)
	}
	if h := i.hook(obj, configv1alpha1.InterpreterOperationInterpretStatus); h != nil {
		return hookReflectStatus(ctx, h, obj)
	}
	return workload.ReflectStatus(obj)
}

// Health judges a member object. A failing script gives Unknown and its
// error.
func (i *Interpreter) Health(ctx context.Context, obj *unstructured.Unstructured) (workv1alpha2.ResourceHealth, error) {
	if sc := i.script(obj, configv1alpha1.InterpreterOperationInterpretHealth); sc != nil {
		healthy, err := runInterpretHealth(ctx, i.vm, sc, obj)
		switch {
		case err != nil:
			return workv1alpha2.ResourceUnknown, err
		case healthy:
			return workv1alpha2.ResourceHealthy, nil
		}
		return workv1alpha2.ResourceUnhealthy, nil
	}
	if h := i.hook(obj, configv1alpha1.InterpreterOperationInterpretHealth); h != nil {
		return hookHealth(ctx, h, obj)
	}
	return workload.Health(obj), nil
}

// Observe is ReflectStatus and Health of one member object, each with its
// error; without customizations of either, the object is decoded once.
func (i *Interpreter) Observe(ctx context.Context, obj *unstructured.Unstructured) (status *runtime.RawExtension, statusErr error, health workv1alpha2.ResourceHealth, healthErr error) {
	if gvk := obj.GroupVersionKind(); i.Customized(gvk, configv1alpha1.InterpreterOperationInterpretStatus) ||
		i.Customized(gvk, configv1alpha1.InterpreterOperationInterpretHealth) {
		status, statusErr = i.ReflectStatus(ctx, obj)
		health, healthErr = i.Health(ctx, obj)
		return status, statusErr, health, healthErr
	}
	status, health, statusErr = workload.Observe(obj)
	return status, statusErr, health, nil
}

// AggregateStatus computes the template's status from the members'
// reports; ok is false for kinds whose status is not aggregated. A
// customization's script returns the whole template; its status is taken.
func (i *Interpreter) AggregateStatus(ctx context.Context, tmpl *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem, now metav1.Time) (status map[string]any, ok bool, err error) {
	if sc := i.script(tmpl, configv1alpha1.InterpreterOperationAggregateStatus); sc != nil {
		out, err := runAggregateStatus(ctx, i.vm, sc, tmpl.DeepCopy(), items)
		if err != nil {
			return nil, false, err
		}
		status, _ := out.Object["status"].(map[string]any)
		return status, true, nil
	}
	if h := i.hook(tmpl, configv1alpha1.InterpreterOperationAggregateStatus); h != nil {
		status, err := hookAggregateStatus(ctx, h, tmpl.DeepCopy(), items)
		return status, err == nil, err
	}
	return workload.AggregateStatus(tmpl, items, now)
}

// Dependencies lists what a template depends on: what every dependency
// script of its kind returns, merged, or mco's own rules for pod
// templates and ServiceImports.
func (i *Interpreter) Dependencies(ctx context.Context, obj *unstructured.Unstructured) ([]configv1alpha1.DependentObjectReference, error) {
	scripts := i.set.Load().dependencyScripts(obj.GroupVersionKind())
	if len(scripts) == 0 {
		if h := i.hook(obj, configv1alpha1.InterpreterOperationInterpretDependency); h != nil {
			return hookDependencies(ctx, h, obj)
		}
		if obj.GroupVersionKind().GroupKind() == mcs.ServiceImportGK {
			return mcs.ImportDependencies(obj), nil
		}
		deps, err := workload.Dependencies(obj)
		if err != nil {
			return nil, err
		}
		out := make([]configv1alpha1.DependentObjectReference, 0, len(deps))
		for _, d := range deps {
			out = append(out, configv1alpha1.DependentObjectReference{APIVersion: "v1", Kind: d.Kind, Namespace: d.Namespace, Name: d.Name})
		}
		return out, nil
	}
	lists := make([][]configv1alpha1.DependentObjectReference, 0, len(scripts))
	for _, sc := range scripts {
		deps, err := runGetDependencies(ctx, i.vm, sc, obj)
		if err != nil {
			return nil, err
		}
		lists = append(lists, deps)
	}
	return mergeDependencies(lists...), nil
}
