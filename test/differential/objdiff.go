package differential

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strings"
)

// FieldDiff is one field where two objects differ. Kube or MCO is absent
// (Missing) when only the other has the field.
type FieldDiff struct {
	Path     []any // string keys and int list indices
	Kube     any
	MCO      any
	KubeHas  bool
	MCOHas   bool
	Rendered string // Path as "spec.ports[0].nodePort"
}

// diffObjects lists the fields where kube and mco differ, in path order.
// Maps are compared key by key and lists item by item, so that a list item
// differing in one field is reported at that field.
func diffObjects(kube, mco map[string]any) []FieldDiff {
	var out []FieldDiff
	walkDiff(nil, kube, mco, true, true, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Rendered < out[j].Rendered })
	return out
}

func walkDiff(path []any, k, m any, kHas, mHas bool, out *[]FieldDiff) {
	if kHas && mHas {
		km, kIsMap := k.(map[string]any)
		mm, mIsMap := m.(map[string]any)
		if kIsMap && mIsMap {
			for _, key := range unionKeys(km, mm) {
				kv, kok := km[key]
				mv, mok := mm[key]
				walkDiff(appendPath(path, key), kv, mv, kok, mok, out)
			}
			return
		}
		kl, kIsList := k.([]any)
		ml, mIsList := m.([]any)
		if kIsList && mIsList {
			for i := 0; i < len(kl) || i < len(ml); i++ {
				var kv, mv any
				if i < len(kl) {
					kv = kl[i]
				}
				if i < len(ml) {
					mv = ml[i]
				}
				walkDiff(appendPath(path, i), kv, mv, i < len(kl), i < len(ml), out)
			}
			return
		}
		if reflect.DeepEqual(k, m) {
			return
		}
	}
	*out = append(*out, FieldDiff{Path: path, Kube: k, MCO: m, KubeHas: kHas, MCOHas: mHas, Rendered: renderPath(path)})
}

func appendPath(path []any, seg any) []any {
	return append(append([]any(nil), path...), seg)
}

func unionKeys(a, b map[string]any) []string {
	seen := map[string]bool{}
	var keys []string
	for _, m := range []map[string]any{a, b} {
		for k := range m {
			if !seen[k] {
				seen[k] = true
				keys = append(keys, k)
			}
		}
	}
	sort.Strings(keys)
	return keys
}

var plainKey = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// renderPath writes a path as Kubernetes writes field paths: keys joined
// by dots, list indices and keys that are not identifiers in brackets.
func renderPath(path []any) string {
	var b strings.Builder
	for _, seg := range path {
		switch s := seg.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		case string:
			if plainKey.MatchString(s) {
				if b.Len() > 0 {
					b.WriteByte('.')
				}
				b.WriteString(s)
			} else {
				fmt.Fprintf(&b, "[%s]", s)
			}
		}
	}
	return b.String()
}

var listIndex = regexp.MustCompile(`\[\d+\]`)

// genericPath replaces list indices by [*], to group the same field of
// different list items and cases.
func genericPath(p string) string { return listIndex.ReplaceAllString(p, "[*]") }

// renderValue is a short JSON form of a value, for messages.
func renderValue(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	const max = 80
	if s := string(data); len(s) > max {
		return s[:max] + "…"
	}
	return string(data)
}
