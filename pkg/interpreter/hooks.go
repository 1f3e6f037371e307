package interpreter

import (
	"context"
	"errors"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	configv1alpha1 "github.com/mco-org/mco/pkg/apis/config/v1alpha1"
	workv1alpha2 "github.com/mco-org/mco/pkg/apis/work/v1alpha2"
	"github.com/mco-org/mco/pkg/interpreter/webhook"
	"github.com/mco-org/mco/pkg/workload"
)

// Each function below asks one operation of an interpreter webhook and
// turns its answer into mco's types, as Karmada reads it.

// ask posts op about obj to h, with what fill adds to the request.
func ask(ctx context.Context, h *webhook.Hook, op configv1alpha1.InterpreterOperation, obj *unstructured.Unstructured,
	fill func(*configv1alpha1.ResourceInterpreterRequest) error) (*configv1alpha1.ResourceInterpreterResponse, error) {
	raw, err := obj.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode %s for interpreter webhook %s: %w", obj.GetName(), h.Name, err)
	}
	gvk := obj.GroupVersionKind()
	req := &configv1alpha1.ResourceInterpreterRequest{
		Kind:      metav1.GroupVersionKind{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind},
		Name:      obj.GetName(),
		Namespace: obj.GetNamespace(),
		Operation: op,
		Object:    runtime.RawExtension{Raw: raw},
	}
	if fill != nil {
		if err := fill(req); err != nil {
			return nil, err
		}
	}
	resp, err := h.Call(ctx, req)
	if err != nil {
		return nil, hookError(h, op, obj, err)
	}
	return resp, nil
}

// hookError is a webhook's failure as the reporters see a script's.
func hookError(h *webhook.Hook, op configv1alpha1.InterpreterOperation, obj *unstructured.Unstructured, err error) error {
	var we *webhook.Error
	if errors.As(err, &we) {
		err = we.Err
	}
	return &ScriptError{Webhook: h.Name, Operation: op, Kind: obj.GroupVersionKind(), Err: err}
}

func hookReplicas(ctx context.Context, h *webhook.Hook, obj *unstructured.Unstructured) (workload.Interpretation, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationInterpretReplica, obj, nil)
	if err != nil {
		return workload.Interpretation{}, err
	}
	return workload.Interpretation{Replicated: true, Replicas: *resp.Replicas, Requirements: resp.ReplicaRequirements}, nil
}

func hookComponents(ctx context.Context, h *webhook.Hook, obj *unstructured.Unstructured) (workload.Interpretation, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationInterpretComponent, obj, nil)
	if err != nil {
		return workload.Interpretation{}, err
	}
	return workload.Interpretation{Components: resp.Components}, nil
}

func hookReviseReplicas(ctx context.Context, h *webhook.Hook, obj *unstructured.Unstructured, replicas int32) (*unstructured.Unstructured, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationReviseReplica, obj, func(r *configv1alpha1.ResourceInterpreterRequest) error {
		r.DesiredReplicas = &replicas
		return nil
	})
	if err != nil {
		return nil, err
	}
	return patched(h, configv1alpha1.InterpreterOperationReviseReplica, obj, resp)
}

func hookRetain(ctx context.Context, h *webhook.Hook, desired, observed *unstructured.Unstructured) (*unstructured.Unstructured, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationRetain, desired, func(r *configv1alpha1.ResourceInterpreterRequest) error {
		raw, err := observed.MarshalJSON()
		if err != nil {
			return fmt.Errorf("encode the member's %s for interpreter webhook %s: %w", observed.GetName(), h.Name, err)
		}
		r.ObservedObject = &runtime.RawExtension{Raw: raw}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return patched(h, configv1alpha1.InterpreterOperationRetain, desired, resp)
}

func hookReflectStatus(ctx context.Context, h *webhook.Hook, obj *unstructured.Unstructured) (*runtime.RawExtension, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationInterpretStatus, obj, nil)
	if err != nil {
		return nil, err
	}
	return resp.RawStatus, nil
}

func hookHealth(ctx context.Context, h *webhook.Hook, obj *unstructured.Unstructured) (workv1alpha2.ResourceHealth, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationInterpretHealth, obj, nil)
	switch {
	case err != nil:
		return workv1alpha2.ResourceUnknown, err
	case *resp.Healthy:
		return workv1alpha2.ResourceHealthy, nil
	}
	return workv1alpha2.ResourceUnhealthy, nil
}

func hookAggregateStatus(ctx context.Context, h *webhook.Hook, tmpl *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem) (map[string]any, error) {
	out, err := hookAggregated(ctx, h, tmpl, items)
	if err != nil {
		return nil, err
	}
	status, _ := out.Object["status"].(map[string]any)
	return status, nil
}

// hookAggregated is the template as the webhook's patch leaves it.
func hookAggregated(ctx context.Context, h *webhook.Hook, tmpl *unstructured.Unstructured, items []workv1alpha2.AggregatedStatusItem) (*unstructured.Unstructured, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationAggregateStatus, tmpl, func(r *configv1alpha1.ResourceInterpreterRequest) error {
		r.AggregatedStatus = items
		return nil
	})
	if err != nil {
		return nil, err
	}
	return patched(h, configv1alpha1.InterpreterOperationAggregateStatus, tmpl, resp)
}

func hookDependencies(ctx context.Context, h *webhook.Hook, obj *unstructured.Unstructured) ([]configv1alpha1.DependentObjectReference, error) {
	resp, err := ask(ctx, h, configv1alpha1.InterpreterOperationInterpretDependency, obj, nil)
	if err != nil {
		return nil, err
	}
	return resp.Dependencies, nil
}

// patched applies a response's patch to a copy of obj.
func patched(h *webhook.Hook, op configv1alpha1.InterpreterOperation, obj *unstructured.Unstructured, resp *configv1alpha1.ResourceInterpreterResponse) (*unstructured.Unstructured, error) {
	raw, err := obj.MarshalJSON()
	if err != nil {
		return nil, fmt.Errorf("encode %s: %w", obj.GetName(), err)
	}
	out, err := webhook.ApplyPatch(raw, resp)
	if err != nil {
		return nil, hookError(h, op, obj, err)
	}
	// Decoded as the API machinery decodes objects: whole numbers as int64.
	patchedObj := &unstructured.Unstructured{}
	if err := patchedObj.UnmarshalJSON(out); err != nil {
		return nil, hookError(h, op, obj, fmt.Errorf("the patched object is not an object: %w", err))
	}
	return patchedObj, nil
}
