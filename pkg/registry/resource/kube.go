package resource

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	// Allocate, when set, fills in on the internal copy validation sees
	// what kube-apiserver's REST layer allocates before validating and mco
	// leaves to the members (a Service's cluster IPs, families and node
	// ports); old is nil on a create. Its error is the request's answer.
	Allocate func(ctx context.Context, obj, old runtime.Object) error
	// OnRead, when set, adjusts the internal version of every object the
	// main resource returns, as kube-apiserver's storage of the kind does
	// (an ExternalName Service shows no internalTrafficPolicy).
	OnRead func(internal runtime.Object)
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

// back replaces obj's content with the internal object's, in the served
// version, as kube-apiserver stores it: fields the internal version lacks
// (a Secret's stringData, merged into data) are gone, and what the served
// version derives from it is set. A failure leaves obj as it was;
// validation, which converts again, then reports it.
func (k *KubeStrategy) back(in, obj runtime.Object) {
	dst := reflect.ValueOf(obj)
	if dst.Kind() != reflect.Pointer || dst.IsNil() {
		return
	}
	fresh := reflect.New(dst.Elem().Type())
	if err := k.Scheme.Convert(in, fresh.Interface(), nil); err != nil {
		return
	}
	gvk := obj.GetObjectKind().GroupVersionKind()
	dst.Elem().Set(fresh.Elem())
	obj.GetObjectKind().SetGroupVersionKind(gvk)
}

// decorate runs OnRead on obj, or on each item of a list.
func (k *KubeStrategy) decorate(obj runtime.Object) {
	if !meta.IsListType(obj) {
		k.onRead(obj)
		return
	}
	_ = meta.EachListItem(obj, func(item runtime.Object) error {
		k.onRead(item)
		return nil
	})
}

func (k *KubeStrategy) onRead(obj runtime.Object) {
	in, err := k.internal(obj)
	if err != nil {
		return
	}
	k.OnRead(in)
	k.back(in, obj)
}

// Normalize converts obj to the internal version and back, in place, as
// kube-apiserver does with every object it decodes: what field tracking,
// the strategy and storage then see is what the internal version holds
// (a Secret's stringData merged into data, a DaemonSet's template
// generation annotation, a StatefulSet's claim templates' apiVersion and
// kind, a pod template's deprecated serviceAccount).
func (k *KubeStrategy) Normalize(obj runtime.Object) {
	in, err := k.internal(obj)
	if err != nil {
		return
	}
	k.back(in, obj)
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
	if k.Allocate != nil {
		if err := k.Allocate(ctx, in, nil); err != nil {
			return fieldErrors(err)
		}
	}
	return k.Main.Validate(ctx, in)
}

func (k *KubeStrategy) validateUpdate(ctx context.Context, s KubeRESTStrategy, obj, old runtime.Object) field.ErrorList {
	in, oldIn, err := k.pair(obj, old)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	// Only the main resource allocates; its status subresource does not.
	if k.Allocate != nil && s == k.Main {
		// The stored object holds no allocations: it gets those a member
		// would have given it, which the update then keeps unless changed.
		if err := k.Allocate(ctx, oldIn, nil); err != nil {
			return fieldErrors(fmt.Errorf("the stored object: %w", err))
		}
		if err := k.Allocate(ctx, in, oldIn); err != nil {
			return fieldErrors(err)
		}
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

// fieldErrors turns an allocation's error back into the field errors it
// was made of, so that the request fails as kube-apiserver's does: 422
// with the same causes. Any other error is internal.
func fieldErrors(err error) field.ErrorList {
	var st apierrors.APIStatus
	if !errors.As(err, &st) || st.Status().Reason != metav1.StatusReasonInvalid || st.Status().Details == nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	var out field.ErrorList
	for _, c := range st.Status().Details.Causes {
		t := field.ErrorType(c.Type)
		detail := strings.TrimPrefix(c.Message, t.String())
		detail = strings.TrimPrefix(detail, ": ")
		out = append(out, &field.Error{Type: t, Field: c.Field, BadValue: field.OmitValueType{}, Detail: detail})
	}
	if len(out) == 0 {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	return out
}
