// Package fielderr compares validation results in tests by error type and
// field path, the two things users act on.
package fielderr

import (
	"fmt"
	"sort"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Want names one expected error.
type Want struct {
	Type field.ErrorType
	Path string
}

func (w Want) String() string { return fmt.Sprintf("%s %s", w.Type, w.Path) }

// New returns the expectation of an error of typ at path.
func New(typ field.ErrorType, path string) Want { return Want{Type: typ, Path: path} }

// Shorthands for the common error types.
func Required(path string) Want     { return New(field.ErrorTypeRequired, path) }
func Invalid(path string) Want      { return New(field.ErrorTypeInvalid, path) }
func NotSupported(path string) Want { return New(field.ErrorTypeNotSupported, path) }
func Forbidden(path string) Want    { return New(field.ErrorTypeForbidden, path) }
func Duplicate(path string) Want    { return New(field.ErrorTypeDuplicate, path) }
func NotFound(path string) Want     { return New(field.ErrorTypeNotFound, path) }
func TooLong(path string) Want      { return New(field.ErrorTypeTooLong, path) }

// Assert fails t unless errs holds exactly the wanted (type, path) pairs,
// in any order.
func Assert(t testing.TB, errs field.ErrorList, want ...Want) {
	t.Helper()
	got := make([]string, 0, len(errs))
	for _, e := range errs {
		got = append(got, New(e.Type, e.Field).String())
	}
	exp := make([]string, 0, len(want))
	for _, w := range want {
		exp = append(exp, w.String())
	}
	sort.Strings(got)
	sort.Strings(exp)
	if strings.Join(got, "\n") != strings.Join(exp, "\n") {
		t.Errorf("errors:\n got %q\nwant %q\nfull: %v", got, exp, errs.ToAggregate())
	}
}
