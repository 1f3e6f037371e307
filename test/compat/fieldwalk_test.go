package compat

import (
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// kind is one top-level kind to walk, keyed "<group>/<Kind>".
type kind struct {
	key string
	typ reflect.Type
}

// karmadaKinds lists the top-level kinds of the Karmada groups as their
// packages register them, so a kind added later is walked without editing
// this file. Lists and the meta/v1 types every group version gets are left
// out.
func karmadaKinds() ([]kind, error) {
	scheme := runtime.NewScheme()
	for _, add := range karmadaGroups {
		if err := add(scheme); err != nil {
			return nil, fmt.Errorf("building the scheme of Karmada's groups: %w", err)
		}
	}
	var kinds []kind
	for gvk, typ := range scheme.AllKnownTypes() {
		if gvk.Version == runtime.APIVersionInternal || strings.HasSuffix(gvk.Kind, "List") ||
			!strings.HasPrefix(typ.PkgPath(), apisPkgPrefix) {
			continue
		}
		kinds = append(kinds, kind{key: gvk.Group + "/" + gvk.Kind, typ: typ})
	}
	sort.Slice(kinds, func(i, j int) bool { return kinds[i].key < kinds[j].key })
	return kinds, nil
}

// bookkeeping are the top-level fields every kind has (TypeMeta inline,
// ObjectMeta, status): they describe the object, they are not instructions
// for mco to act on.
var bookkeeping = map[string]bool{"apiVersion": true, "kind": true, "metadata": true, "status": true}

// walker records the JSON paths of a kind's fields.
type walker struct {
	// descend tells whether the fields of a struct type are walked;
	// other types are leaves.
	descend func(reflect.Type) bool
	out     map[string]bool
}

// walkKind records the fields of a kind: spec and what is below it, or for
// a kind without spec its other top-level fields
// (ResourceInterpreterWebhookConfiguration's webhooks).
func (w *walker) walkKind(prefix string, typ reflect.Type) {
	for _, f := range jsonFields(typ) {
		if !bookkeeping[f.name] {
			w.walkField(prefix+"."+f.name, f.typ, map[reflect.Type]bool{typ: true})
		}
	}
}

// walkField records key and, when its type is one to descend into, every
// field below it. onPath holds the struct types being walked, so that a
// recursive type stops instead of looping.
func (w *walker) walkField(key string, typ reflect.Type, onPath map[reflect.Type]bool) {
	w.out[key] = true
	typ = elemType(typ)
	if !w.descend(typ) || onPath[typ] {
		return
	}
	onPath[typ] = true
	defer delete(onPath, typ)
	for _, f := range jsonFields(typ) {
		w.walkField(key+"."+f.name, f.typ, onPath)
	}
}

// elemType strips pointers, slices, arrays and maps down to the type of a
// single value: `[]` and map keys are not written in the keys.
func elemType(typ reflect.Type) reflect.Type {
	for {
		switch typ.Kind() {
		case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
			typ = typ.Elem()
		default:
			return typ
		}
	}
}

// isMCOAPIStruct is the walker's descend for mco's API types: types of
// other modules (metav1.LabelSelector, corev1.Taint, resource.Quantity)
// are leaves, as Karmada's own are.
func isMCOAPIStruct(typ reflect.Type) bool {
	return strings.HasPrefix(typ.PkgPath(), apisPkgPrefix) && decodesFieldByField(typ)
}

var jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()

// decodesFieldByField tells whether typ is a struct whose JSON fields are
// its own. A type with its own UnmarshalJSON (policyv1alpha1.JSON) is a
// raw value, hence a leaf.
func decodesFieldByField(typ reflect.Type) bool {
	return typ.Kind() == reflect.Struct && !reflect.PointerTo(typ).Implements(jsonUnmarshaler)
}

// jsonField is a field as it appears on the wire.
type jsonField struct {
	name string
	typ  reflect.Type
}

// jsonFields lists the wire fields of a struct the way encoding/json sees
// them: `json:"-"` and unexported fields dropped, inline and untagged
// embedded structs flattened into their parent (once each: a struct may
// embed a pointer to itself).
func jsonFields(typ reflect.Type) []jsonField {
	return appendJSONFields(nil, typ, map[reflect.Type]bool{})
}

func appendJSONFields(fields []jsonField, typ reflect.Type, flattened map[reflect.Type]bool) []jsonField {
	flattened[typ] = true
	for i := range typ.NumField() {
		sf := typ.Field(i)
		name, opts, _ := strings.Cut(sf.Tag.Get("json"), ",")
		switch {
		case name == "-" && opts == "":
		case isInline(sf, name, opts):
			if embedded := derefType(sf.Type); !flattened[embedded] {
				fields = appendJSONFields(fields, embedded, flattened)
			}
		case !sf.IsExported():
		case name == "":
			fields = append(fields, jsonField{name: sf.Name, typ: sf.Type})
		default:
			fields = append(fields, jsonField{name: name, typ: sf.Type})
		}
	}
	return fields
}

// isInline tells whether a field's own fields sit in its parent's object:
// Kubernetes' `json:",inline"`, or an embedded struct without a name.
func isInline(sf reflect.StructField, name, opts string) bool {
	if !sf.Anonymous || name != "" {
		return false
	}
	return strings.Contains(opts, "inline") || derefType(sf.Type).Kind() == reflect.Struct
}

func derefType(typ reflect.Type) reflect.Type {
	if typ.Kind() == reflect.Pointer {
		return typ.Elem()
	}
	return typ
}

// The walker's own cases, on types shaped like the tricky parts of the
// API types: a recursive type, inline and untagged embedding, a raw value,
// a map of structs, and the fields a key must not show.
type (
	guardKind struct {
		metav1.TypeMeta   `json:",inline"`
		metav1.ObjectMeta `json:"metadata,omitempty"`
		Spec              guardNode  `json:"spec"`
		Status            guardEntry `json:"status"`
	}
	guardNode struct {
		Name        string      `json:"name"`
		Children    []guardNode `json:"children"`
		Next        *guardNode  `json:"next,omitempty"`
		Hidden      string      `json:"-"`
		Untagged    int
		private     int
		guardInline `json:",inline"`
		*guardEmbedded
		Raw guardRaw `json:"raw"`
	}
	guardInline struct {
		Entries map[string]guardEntry `json:"entries"`
	}
	guardEmbedded struct {
		Promoted bool `json:"promoted"`
	}
	guardEntry struct {
		Deep string `json:"deep"`
	}
	guardRaw struct{ raw []byte }
)

func (r *guardRaw) UnmarshalJSON(data []byte) error { r.raw = data; return nil }

func TestSpecFieldGuardWalker(t *testing.T) {
	t.Parallel()
	guardPkg := reflect.TypeFor[guardKind]().PkgPath()
	w := walker{
		descend: func(typ reflect.Type) bool { return typ.PkgPath() == guardPkg && decodesFieldByField(typ) },
		out:     map[string]bool{},
	}
	w.walkKind("g/Kind", reflect.TypeFor[guardKind]())
	want := []string{
		"g/Kind.spec", "g/Kind.spec.Untagged", "g/Kind.spec.children", "g/Kind.spec.entries",
		"g/Kind.spec.entries.deep", "g/Kind.spec.name", "g/Kind.spec.next", "g/Kind.spec.promoted", "g/Kind.spec.raw",
	}
	if got := sortedKeys(w.out); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("walked\n\t%s\nwant\n\t%s", strings.Join(got, "\n\t"), strings.Join(want, "\n\t"))
	}
}
