package resource

import (
	"context"
	"fmt"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// KubeStrategy is Kubernetes' own registry strategy of a built-in kind
// (k8s.io/kubernetes/pkg/registry/...), run on the kind's internal version
// so that mco prepares, validates, warns and bumps generations exactly as
// kube-apiserver does. Objects stay in the served version in mco's
// storage; each call converts a copy to the internal version and back.
type KubeStrategy struct {
	// Scheme converts between the served and the internal version
	// (Kubernetes' legacyscheme).
	Scheme *runtime.Scheme
	// Internal returns an empty object of the internal type.
	Internal func() runtime.Object
	// Main is the strategy of the resource; Status that of its status
	// subresource (nil when it has none).
	Main   KubeRESTStrategy
	Status KubeRESTStrategy
	// BeforeValidate adjusts the internal copy validation sees, for what
	// kube-apiserver's REST layer fills in before validating and mco leaves
	// to the members (a Service's IP families); optional.
	BeforeValidate func(internal runtime.Object)
}

// KubeRESTStrategy is what KubeStrategy calls of a Kubernetes strategy.
type KubeRESTStrategy interface {
	rest.RESTCreateStrategy
	rest.RESTUpdateStrategy
}

// internal converts obj (the served version) to a new internal object.
func (k *KubeStrategy) internal(obj runtime.Object) (runtime.Object, error) {
	out := k.Internal()
	if err := k.Scheme.Convert(obj, out, nil); err != nil {
		return nil, fmt.Errorf("convert %T to the internal version: %w", obj, err)
	}
	return out, nil
}

// pair converts obj and old to the internal version.
func (k *KubeStrategy) pair(obj, old runtime.Object) (runtime.Object, runtime.Object, error) {
	in, err := k.internal(obj)
	if err != nil {
		return nil, nil, err
	}
	oldIn, err := k.internal(old)
	if err != nil {
		return nil, nil, err
	}
	return in, oldIn, nil
}

// back writes the internal object's content into obj, in the served
// version. A failure leaves obj as it was; validation, which converts
// again, then reports it.
func (k *KubeStrategy) back(in, obj runtime.Object) {
	_ = k.Scheme.Convert(in, obj, nil)
}

func (k *KubeStrategy) prepareForCreate(ctx context.Context, obj runtime.Object) {
	in, err := k.internal(obj)
	if err != nil {
		return
	}
	k.Main.PrepareForCreate(ctx, in)
	k.back(in, obj)
}

func (k *KubeStrategy) prepareForUpdate(ctx context.Context, s KubeRESTStrategy, obj, old runtime.Object) {
	in, oldIn, err := k.pair(obj, old)
	if err != nil {
		return
	}
	s.PrepareForUpdate(ctx, in, oldIn)
	k.back(in, obj)
}

func (k *KubeStrategy) validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	in, err := k.internal(obj)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	if k.BeforeValidate != nil {
		k.BeforeValidate(in)
	}
	return k.Main.Validate(ctx, in)
}

func (k *KubeStrategy) validateUpdate(ctx context.Context, s KubeRESTStrategy, obj, old runtime.Object) field.ErrorList {
	in, oldIn, err := k.pair(obj, old)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	if k.BeforeValidate != nil {
		k.BeforeValidate(in)
		k.BeforeValidate(oldIn)
	}
	return s.ValidateUpdate(ctx, in, oldIn)
}

func (k *KubeStrategy) warningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	in, err := k.internal(obj)
	if err != nil {
		return nil
	}
	return k.Main.WarningsOnCreate(ctx, in)
}

func (k *KubeStrategy) warningsOnUpdate(ctx context.Context, s KubeRESTStrategy, obj, old runtime.Object) []string {
	in, oldIn, err := k.pair(obj, old)
	if err != nil {
		return nil
	}
	return s.WarningsOnUpdate(ctx, in, oldIn)
}

// resetFields returns the fields s resets, as Kubernetes declares them.
func resetFieldsOf(s KubeRESTStrategy) map[fieldpath.APIVersion]*fieldpath.Set {
	if r, ok := s.(rest.ResetFieldsStrategy); ok {
		return r.GetResetFields()
	}
	return nil
}
