package workload

import (
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// untracked are the top-level fields a member's answer legitimately
// differs in from what was applied: identity, metadata the server owns
// and fills, status (not applied through the object), and a Secret's
// write-only stringData.
var untracked = map[string]bool{"apiVersion": true, "kind": true, "metadata": true, "status": true, "stringData": true}

// FieldPath is where a field is in an object: map keys and, for list
// items, "[i]".
type FieldPath []string

// String is the path as Kubernetes writes it: spec.containers[0].image.
func (p FieldPath) String() string { return fieldPath(p) }

// DroppedFields lists the fields set in sent that the member's answer kept
// lacks (spec.template.spec.hostnameOverride,
// spec.template.spec.containers[0].restartPolicyRules): fields its schema
// does not have (an older Kubernetes version, an older CRD) or that it
// drops (a feature gate off). Only what can be told apart for sure is
// listed: a field with its zero value is not (servers omit those), list
// items are matched by name or, in lists of the same length, by position,
// and a value the server only rewrote (1000m for 1) is kept, not dropped.
func DroppedFields(sent, kept map[string]any) []FieldPath {
	var out []FieldPath
	for k, v := range sent {
		if untracked[k] {
			continue
		}
		got, ok := kept[k]
		dropped([]string{k}, v, got, ok, &out)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].String() < out[j].String() })
	return out
}

// dropped walks one value; path holds its segments.
func dropped(path []string, sent, kept any, present bool, out *[]FieldPath) {
	if zero(sent) {
		return
	}
	if !present || kept == nil {
		*out = append(*out, append(FieldPath(nil), path...))
		return
	}
	switch s := sent.(type) {
	case map[string]any:
		k, ok := kept.(map[string]any)
		if !ok {
			return
		}
		for key, v := range s {
			got, ok := k[key]
			dropped(append(path, key), v, got, ok, out)
		}
	case []any:
		k, ok := kept.([]any)
		if !ok {
			return
		}
		for i, v := range s {
			if got, ok := counterpart(v, i, len(s), k); ok {
				dropped(append(path, "["+strconv.Itoa(i)+"]"), v, got, true, out)
			}
		}
	}
}

// Lookup returns the value at p in obj.
func Lookup(obj map[string]any, p FieldPath) (any, bool) {
	var cur any = obj
	for _, seg := range p {
		switch c := cur.(type) {
		case map[string]any:
			v, ok := c[seg]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(strings.Trim(seg, "[]"))
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// Remove deletes the field at p from obj (a map key; list items stay).
func Remove(obj map[string]any, p FieldPath) {
	if len(p) == 0 {
		return
	}
	parent, ok := Lookup(obj, p[:len(p)-1])
	if m, isMap := parent.(map[string]any); ok && isMap {
		delete(m, p[len(p)-1])
	}
}

// Same tells whether two values of decoded objects are equal, whatever the
// decoder made of their numbers.
func Same(a, b any) bool {
	return value.Equals(value.NewValueInterface(a), value.NewValueInterface(b))
}

// fieldPath joins segments as Kubernetes writes field paths:
// spec.containers[0].image.
func fieldPath(segments []string) string {
	var b strings.Builder
	for i, seg := range segments {
		if i > 0 && !strings.HasPrefix(seg, "[") {
			b.WriteByte('.')
		}
		b.WriteString(seg)
	}
	return b.String()
}

// counterpart finds the item of kept that an applied list item became: the
// one of the same name, or the one at the same position when the lists
// are of one length and items have no names.
func counterpart(item any, i, sentLen int, kept []any) (any, bool) {
	if m, ok := item.(map[string]any); ok {
		if name, ok := m["name"].(string); ok && name != "" {
			if i < len(kept) && named(kept[i], name) {
				return kept[i], true
			}
			for _, k := range kept {
				if named(k, name) {
					return k, true
				}
			}
			return nil, false
		}
	}
	if len(kept) == sentLen {
		return kept[i], true
	}
	return nil, false
}

func named(item any, name string) bool {
	m, ok := item.(map[string]any)
	return ok && m["name"] == name
}

// zero tells whether a value is one a server omits when writing an object
// back: null, false, 0, "", and maps and lists holding only such values.
func zero(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case bool:
		return !x
	case string:
		return x == ""
	case int64:
		return x == 0
	case int:
		return x == 0
	case float64:
		return x == 0
	case map[string]any:
		for _, e := range x {
			if !zero(e) {
				return false
			}
		}
		return true
	case []any:
		for _, e := range x {
			if !zero(e) {
				return false
			}
		}
		return true
	}
	return false
}
