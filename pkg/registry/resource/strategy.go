package resource

import (
	"context"
	"fmt"
	"reflect"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"k8s.io/apiserver/pkg/registry/rest"
	"k8s.io/apiserver/pkg/storage"
	"k8s.io/apiserver/pkg/storage/names"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// strategy implements create, update and delete for the main resource.
type strategy struct {
	runtime.ObjectTyper
	names.NameGenerator
	spec *Spec
}

func newStrategy(typer runtime.ObjectTyper, spec *Spec) strategy {
	return strategy{ObjectTyper: typer, NameGenerator: names.SimpleNameGenerator, spec: spec}
}

func (s strategy) NamespaceScoped() bool { return s.spec.Namespaced }

func (s strategy) PrepareForCreate(ctx context.Context, obj runtime.Object) {
	if k := s.spec.Kube; k != nil {
		k.prepareForCreate(ctx, obj)
		if s.spec.OnCreate != nil {
			s.spec.OnCreate(obj)
		}
		return
	}
	if s.spec.HasStatus {
		clearStatus(obj)
	}
	if m, err := meta.Accessor(obj); err == nil {
		s.spec.Generation.onCreate(m)
	}
	if s.spec.Default != nil {
		s.spec.Default(obj)
	}
	if s.spec.OnCreate != nil {
		s.spec.OnCreate(obj)
	}
}

func (s strategy) PrepareForUpdate(ctx context.Context, obj, old runtime.Object) {
	if k := s.spec.Kube; k != nil {
		k.prepareForUpdate(ctx, k.Main, obj, old)
		return
	}
	if s.spec.HasStatus {
		copyStatus(obj, old)
	}
	if s.spec.Default != nil {
		s.spec.Default(obj)
	}
	newMeta, err1 := meta.Accessor(obj)
	oldMeta, err2 := meta.Accessor(old)
	if err1 != nil || err2 != nil {
		return
	}
	s.spec.Generation.onUpdate(obj, old, newMeta, oldMeta)
}

func (s strategy) Validate(ctx context.Context, obj runtime.Object) field.ErrorList {
	if k := s.spec.Kube; k != nil {
		return k.validate(ctx, obj)
	}
	return s.spec.Validate(obj)
}

func (s strategy) ValidateUpdate(ctx context.Context, obj, old runtime.Object) field.ErrorList {
	if k := s.spec.Kube; k != nil {
		return k.validateUpdate(ctx, k.Main, obj, old)
	}
	if s.spec.ValidateUpdate != nil {
		return s.spec.ValidateUpdate(obj, old)
	}
	return s.spec.Validate(obj)
}

func (s strategy) WarningsOnCreate(ctx context.Context, obj runtime.Object) []string {
	if k := s.spec.Kube; k != nil {
		return k.warningsOnCreate(ctx, obj)
	}
	return nil
}

func (s strategy) WarningsOnUpdate(ctx context.Context, obj, old runtime.Object) []string {
	if k := s.spec.Kube; k != nil {
		return k.warningsOnUpdate(ctx, k.Main, obj, old)
	}
	return nil
}
func (strategy) Canonicalize(runtime.Object)                   {}
func (strategy) AllowCreateOnUpdate(context.Context) bool      { return false }
func (strategy) AllowUnconditionalUpdate(context.Context) bool { return true }

// GetResetFields names the fields the main resource ignores: its status.
func (s strategy) GetResetFields() map[fieldpath.APIVersion]*fieldpath.Set {
	if k := s.spec.Kube; k != nil {
		return resetFieldsOf(k.Main)
	}
	if !s.spec.HasStatus {
		return nil
	}
	return s.resetFields(fieldpath.NewSet(fieldpath.MakePathOrDie("status")))
}

func (s strategy) resetFields(set *fieldpath.Set) map[fieldpath.APIVersion]*fieldpath.Set {
	return map[fieldpath.APIVersion]*fieldpath.Set{
		fieldpath.APIVersion(s.spec.GroupVersion().String()): set,
	}
}

// getAttrs returns the labels and selectable fields of an object.
func (s *Spec) getAttrs(obj runtime.Object) (labels.Set, fields.Set, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, nil, fmt.Errorf("not a Kubernetes object: %w", err)
	}
	fs := fields.Set{"metadata.name": m.GetName()}
	if s.Namespaced {
		fs["metadata.namespace"] = m.GetNamespace()
	}
	if s.Fields != nil {
		for k, v := range s.Fields(obj) {
			fs[k] = v
		}
	}
	return labels.Set(m.GetLabels()), fs, nil
}

// predicate matches objects by label and field selectors.
func (s *Spec) predicate(label labels.Selector, field fields.Selector) storage.SelectionPredicate {
	return storage.SelectionPredicate{Label: label, Field: field, GetAttrs: s.getAttrs}
}

// structValue returns the struct an object pointer points at.
func structValue(obj runtime.Object) reflect.Value {
	v := reflect.ValueOf(obj)
	for v.Kind() == reflect.Pointer {
		v = v.Elem()
	}
	return v
}

// clearStatus zeroes the Status field of obj, if it has one.
func clearStatus(obj runtime.Object) {
	if f := structValue(obj).FieldByName("Status"); f.IsValid() && f.CanSet() {
		f.Set(reflect.Zero(f.Type()))
	}
}

// copyStatus sets obj's Status to old's.
func copyStatus(obj, old runtime.Object) {
	dst := structValue(obj).FieldByName("Status")
	src := structValue(old).FieldByName("Status")
	if dst.IsValid() && src.IsValid() && dst.CanSet() {
		dst.Set(src)
	}
}

// CreateStrategy is the strategy a create of spec's resource runs
// (preparation, validation, warnings), for checks outside the server.
func CreateStrategy(typer runtime.ObjectTyper, spec *Spec) rest.RESTCreateStrategy {
	return newStrategy(typer, spec)
}
