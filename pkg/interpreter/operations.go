package interpreter

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	glua "github.com/yuin/gopher-lua"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/interpreter/lua"
)

// Each function below runs one operation's script and turns what it
// returns into mco's types, as Karmada does (see lua.FromLua for objects).

// call runs a script's function and wraps its failure in a ScriptError.
func call(ctx context.Context, vm *lua.VM, sc *script, obj *unstructured.Unstructured, nret int, decode func([]glua.LValue) error, args ...any) error {
	if err := vm.Call(ctx, sc.compiled, sc.rule.Function, nret, decode, args...); err != nil {
		return &ScriptError{Customization: sc.customization, Operation: sc.rule.Operation, Kind: obj.GroupVersionKind(), Err: err}
	}
	return nil
}

func runGetReplicas(ctx context.Context, vm *lua.VM, sc *script, obj *unstructured.Unstructured) (replicas int32, req *workv1alpha2.ReplicaRequirements, err error) {
	err = call(ctx, vm, sc, obj, 2, func(rets []glua.LValue) error {
		n, ok := rets[0].(glua.LNumber)
		if !ok {
			return fmt.Errorf("GetReplicas returned a %s as the replica count, want a number", rets[0].Type())
		}
		if n < 0 || n > math.MaxInt32 {
			return fmt.Errorf("GetReplicas returned %v replicas, want 0 to %d", n, math.MaxInt32)
		}
		replicas = int32(n)
		switch r := rets[1].(type) {
		case *glua.LNilType:
			return nil
		case *glua.LTable:
			req = &workv1alpha2.ReplicaRequirements{}
			return decodeInto(r, false, req, "the requirements GetReplicas returned")
		}
		return fmt.Errorf("GetReplicas returned a %s as the requirements, want a table or nil", rets[1].Type())
	}, obj.Object)
	return replicas, req, err
}

func runGetComponents(ctx context.Context, vm *lua.VM, sc *script, obj *unstructured.Unstructured) (components []workv1alpha2.Component, err error) {
	err = call(ctx, vm, sc, obj, 1, func(rets []glua.LValue) error {
		switch r := rets[0].(type) {
		case *glua.LNilType:
			return nil
		case *glua.LTable:
			return decodeInto(r, true, &components, "the components GetComponents returned")
		}
		return fmt.Errorf("GetComponents returned a %s, want a table or nil", rets[0].Type())
	}, obj.Object)
	return components, err
}

func runReviseReplica(ctx context.Context, vm *lua.VM, sc *script, obj *unstructured.Unstructured, replicas int64) (out *unstructured.Unstructured, err error) {
	err = call(ctx, vm, sc, obj, 1, func(rets []glua.LValue) error {
		out, err = decodeObject(rets[0], "ReviseReplica", obj.Object)
		return err
	}, obj.Object, replicas)
	return out, err
}

func runRetain(ctx context.Context, vm *lua.VM, sc *script, desired, observed *unstructured.Unstructured) (out *unstructured.Unstructured, err error) {
	err = call(ctx, vm, sc, desired, 1, func(rets []glua.LValue) error {
		out, err = decodeObject(rets[0], "Retain", desired.Object, observed.Object)
		return err
	}, desired.Object, observed.Object)
	return out, err
}

// runAggregateStatus returns the template the script returns; the caller
// takes its status.
func runAggregateStatus(ctx context.Context, vm *lua.VM, sc *script, tmpl *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem) (out *unstructured.Unstructured, err error) {
	err = call(ctx, vm, sc, tmpl, 1, func(rets []glua.LValue) error {
		out, err = decodeObject(rets[0], "AggregateStatus")
		return err
	}, tmpl.Object, items)
	return out, err
}

func runInterpretHealth(ctx context.Context, vm *lua.VM, sc *script, obj *unstructured.Unstructured) (healthy bool, err error) {
	err = call(ctx, vm, sc, obj, 1, func(rets []glua.LValue) error {
		b, ok := rets[0].(glua.LBool)
		if !ok {
			return fmt.Errorf("InterpretHealth returned a %s, want a boolean", rets[0].Type())
		}
		healthy = bool(b)
		return nil
	}, obj.Object)
	return healthy, err
}

func runReflectStatus(ctx context.Context, vm *lua.VM, sc *script, obj *unstructured.Unstructured) (status *runtime.RawExtension, err error) {
	err = call(ctx, vm, sc, obj, 1, func(rets []glua.LValue) error {
		t, ok := rets[0].(*glua.LTable)
		if !ok {
			return fmt.Errorf("ReflectStatus returned a %s, want a table", rets[0].Type())
		}
		v, err := lua.FromLua(t, false)
		if err != nil {
			return fmt.Errorf("the status ReflectStatus returned: %w", err)
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return fmt.Errorf("encode the status ReflectStatus returned: %w", err)
		}
		status = &runtime.RawExtension{Raw: raw}
		return nil
	}, obj.Object)
	return status, err
}

func runGetDependencies(ctx context.Context, vm *lua.VM, sc *script, obj *unstructured.Unstructured) (deps []configv1alpha1.DependentObjectReference, err error) {
	err = call(ctx, vm, sc, obj, 1, func(rets []glua.LValue) error {
		t, ok := rets[0].(*glua.LTable)
		if !ok {
			return fmt.Errorf("GetDependencies returned a %s, want a table", rets[0].Type())
		}
		if err := decodeInto(t, true, &deps, "the dependencies GetDependencies returned"); err != nil {
			return err
		}
		for i, d := range deps {
			if d.APIVersion == "" || d.Kind == "" {
				return fmt.Errorf("dependency %d has no apiVersion or kind", i+1)
			}
			if d.Name == "" && d.LabelSelector == nil {
				return fmt.Errorf("dependency %d (%s %s) has neither name nor labelSelector", i+1, d.APIVersion, d.Kind)
			}
		}
		return nil
	}, obj.Object)
	return deps, err
}

// mergeDependencies puts together what several scripts returned, as
// Karmada does: without repeats, ordered by apiVersion, kind, namespace
// and name, and an empty list (not nil) when they returned none.
func mergeDependencies(lists ...[]configv1alpha1.DependentObjectReference) []configv1alpha1.DependentObjectReference {
	seen := map[string]bool{}
	out := []configv1alpha1.DependentObjectReference{}
	for _, list := range lists {
		for _, d := range list {
			key, _ := json.Marshal(d)
			if seen[string(key)] {
				continue
			}
			seen[string(key)] = true
			out = append(out, d)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.APIVersion != b.APIVersion {
			return a.APIVersion < b.APIVersion
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		if a.Namespace != b.Namespace {
			return a.Namespace < b.Namespace
		}
		return a.Name < b.Name
	})
	return out
}

// decodeObject turns a returned table into an object, which must name its
// kind; refs are the objects the script was given.
func decodeObject(v glua.LValue, fn string, refs ...any) (*unstructured.Unstructured, error) {
	t, ok := v.(*glua.LTable)
	if !ok {
		return nil, fmt.Errorf("%s returned a %s, want an object", fn, v.Type())
	}
	raw, err := lua.FromLua(t, false, refs...)
	if err != nil {
		return nil, fmt.Errorf("the object %s returned: %w", fn, err)
	}
	obj, _ := raw.(map[string]any)
	if obj == nil {
		return nil, fmt.Errorf("%s returned a list, want an object", fn)
	}
	out := &unstructured.Unstructured{Object: obj}
	if out.GetKind() == "" {
		return nil, fmt.Errorf("the object %s returned has no kind: return the whole object", fn)
	}
	return out, nil
}

// decodeInto turns a returned table into a typed value through JSON.
func decodeInto(t *glua.LTable, list bool, into any, what string) error {
	v, err := lua.FromLua(t, list)
	if err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("encode %s: %w", what, err)
	}
	if err := json.Unmarshal(raw, into); err != nil {
		return fmt.Errorf("decode %s: %w", what, err)
	}
	return nil
}
