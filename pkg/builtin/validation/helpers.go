/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

// Package validation checks the built-in kinds mco serves as resource
// templates. It is a smaller, independent take on what a kube-apiserver
// enforces: enough that a manifest accepted here is not rejected by a member
// cluster for a reason that could have been seen at the control plane.
//
// Every function returns errors with the exact path of the offending field.
// The Validate<Kind> functions check a new object; Validate<Kind>Update
// functions check the new object in full plus what may not change.
package validation

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	utilvalidation "k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

var (
	metadataPath = field.NewPath("metadata")
	specPath     = field.NewPath("spec")
)

// validateEnum checks that value is one of allowed; an empty value is
// reported as missing.
func validateEnum[T ~string](value T, fldPath *field.Path, allowed ...T) field.ErrorList {
	if value == "" {
		return field.ErrorList{field.Required(fldPath, "supported values: "+quoted(allowed))}
	}
	if !slices.Contains(allowed, value) {
		return field.ErrorList{field.NotSupported(fldPath, value, allowed)}
	}
	return nil
}

// validateOptionalEnum is validateEnum for a field that may be left empty.
func validateOptionalEnum[T ~string](value T, fldPath *field.Path, allowed ...T) field.ErrorList {
	if value == "" {
		return nil
	}
	return validateEnum(value, fldPath, allowed...)
}

func quoted[T ~string](values []T) string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = fmt.Sprintf("%q", v)
	}
	return strings.Join(out, ", ")
}

// validateNonNegative checks value >= 0.
func validateNonNegative(value int64, fldPath *field.Path) field.ErrorList {
	if value < 0 {
		return field.ErrorList{field.Invalid(fldPath, value, "must be greater than or equal to 0")}
	}
	return nil
}

// validatePositive checks value > 0.
func validatePositive(value int64, fldPath *field.Path) field.ErrorList {
	if value <= 0 {
		return field.ErrorList{field.Invalid(fldPath, value, "must be greater than 0")}
	}
	return nil
}

// optionalNonNegative checks *p >= 0 when p is set.
func optionalNonNegative[T int32 | int64](p *T, fldPath *field.Path) field.ErrorList {
	if p == nil {
		return nil
	}
	return validateNonNegative(int64(*p), fldPath)
}

// optionalPositive checks *p > 0 when p is set.
func optionalPositive[T int32 | int64](p *T, fldPath *field.Path) field.ErrorList {
	if p == nil {
		return nil
	}
	return validatePositive(int64(*p), fldPath)
}

// messages turns the messages of a util/validation check into Invalid errors.
func messages(fldPath *field.Path, value string, msgs []string) field.ErrorList {
	var errs field.ErrorList
	for _, msg := range msgs {
		errs = append(errs, field.Invalid(fldPath, value, msg))
	}
	return errs
}

func validateDNSLabel(value string, fldPath *field.Path) field.ErrorList {
	return messages(fldPath, value, utilvalidation.IsDNS1123Label(value))
}

func validateDNSSubdomain(value string, fldPath *field.Path) field.ErrorList {
	return messages(fldPath, value, utilvalidation.IsDNS1123Subdomain(value))
}

func validateQualifiedName(value string, fldPath *field.Path) field.ErrorList {
	return messages(fldPath, value, utilvalidation.IsQualifiedName(value))
}

// immutable reports newVal as Invalid when it differs from oldVal.
func immutable(newVal, oldVal any, fldPath *field.Path) field.ErrorList {
	return apivalidation.ValidateImmutableField(newVal, oldVal, fldPath)
}

// setPointerFields returns the JSON names, in declaration order, of the
// non-nil pointer fields of the struct that s points to. One-of structs such
// as a volume source or a probe handler are made of such fields.
func setPointerFields(s any) []string {
	v := reflect.ValueOf(s).Elem()
	var names []string
	for i := 0; i < v.NumField(); i++ {
		f := v.Field(i)
		if f.Kind() != reflect.Pointer || f.IsNil() {
			continue
		}
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("json"), ",")
		names = append(names, name)
	}
	return names
}

// validateOneOf checks that exactly one of the pointer fields of the struct s
// points to is set. what names the kind of thing chosen, e.g. "handler".
func validateOneOf(s any, fldPath *field.Path, what string) field.ErrorList {
	set := setPointerFields(s)
	switch len(set) {
	case 0:
		return field.ErrorList{field.Required(fldPath, "must specify a "+what)}
	case 1:
		return nil
	}
	var errs field.ErrorList
	for _, name := range set[1:] {
		errs = append(errs, field.Forbidden(fldPath.Child(name), "may not specify more than one "+what))
	}
	return errs
}
