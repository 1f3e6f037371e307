package lua

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"

	lua "github.com/yuin/gopher-lua"
)

// ToLua converts a Go value as decoded from JSON (maps, slices, strings,
// numbers, booleans, nil) into a Lua value: a map becomes a table keyed by
// strings, a slice a table indexed from 1, every number a Lua number (a
// float64, so integers beyond 2^53 lose precision, as in Karmada). Other Go
// values are converted through their JSON form.
func ToLua(l *lua.LState, v any) (lua.LValue, error) {
	switch x := v.(type) {
	case nil:
		return lua.LNil, nil
	case bool:
		return lua.LBool(x), nil
	case string:
		return lua.LString(x), nil
	case int:
		return lua.LNumber(x), nil
	case int32:
		return lua.LNumber(x), nil
	case int64:
		return lua.LNumber(x), nil
	case float64:
		return lua.LNumber(x), nil
	case json.Number:
		// A string kind: Karmada passes it as a string.
		return lua.LString(x), nil
	case map[string]any:
		t := l.CreateTable(0, len(x))
		for k, item := range x {
			lv, err := ToLua(l, item)
			if err != nil {
				return nil, err
			}
			t.RawSetString(k, lv)
		}
		return t, nil
	case []any:
		t := l.CreateTable(len(x), 0)
		for _, item := range x {
			lv, err := ToLua(l, item)
			if err != nil {
				return nil, err
			}
			t.Append(lv)
		}
		return t, nil
	}
	raw, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encode %T: %w", v, err)
	}
	var generic any
	if err := json.Unmarshal(raw, &generic); err != nil {
		return nil, fmt.Errorf("decode %T: %w", v, err)
	}
	return ToLua(l, generic)
}

// FromLua converts a Lua value into the Go value its JSON form decodes to,
// as Karmada converts scripts' results: a table with keys 1..n becomes a
// slice, a table with string keys a map, a whole number an int64 and any
// other number a float64.
//
// Lua cannot tell an empty list from an empty map. A returned empty table
// is a map, unless list is set. A nested empty table keeps its field only
// where one of refs, the objects the script was given, has an empty map
// (it becomes a map) or an empty list (it becomes a list) at the same
// path, list positions aside; elsewhere the field is dropped.
//
// Tables mixing string and number keys, sparse lists, tables that hold
// themselves, functions and other Lua-only values are refused.
func FromLua(v lua.LValue, list bool, refs ...any) (any, error) {
	c := converter{visiting: map[*lua.LTable]bool{}, refs: refs}
	if t, ok := v.(*lua.LTable); ok && isEmpty(t) {
		if list {
			return []any{}, nil
		}
		return map[string]any{}, nil
	}
	out, _, err := c.convert(v, "")
	return out, err
}

type converter struct {
	visiting map[*lua.LTable]bool
	refs     []any
	empties  map[string]emptyKind // by path; built on the first empty table
}

type emptyKind int

const (
	emptyMap emptyKind = iota + 1
	emptyList
)

// convert returns the Go value of v at path; keep is false when v is an
// empty table to drop.
func (c *converter) convert(v lua.LValue, path string) (out any, keep bool, err error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return nil, true, nil
	case lua.LBool:
		return bool(x), true, nil
	case lua.LString:
		return string(x), true, nil
	case lua.LNumber:
		n, err := number(float64(x))
		return n, err == nil, err
	case *lua.LTable:
		if c.visiting[x] {
			return nil, false, fmt.Errorf("%scannot convert a table that holds itself", at(path))
		}
		c.visiting[x] = true
		defer delete(c.visiting, x)
		return c.table(x, path)
	}
	return nil, false, fmt.Errorf("%scannot convert a Lua %s", at(path), v.Type())
}

func at(path string) string {
	if path == "" {
		return ""
	}
	return path + ": "
}

func isEmpty(t *lua.LTable) bool {
	k, _ := t.Next(lua.LNil)
	return k == lua.LNil
}

// table converts a non-empty table as Karmada's JSON encoding of Lua
// values does: keys 1..n in order make a list; any other keys (strings,
// numbers out of order or past a hole, or a mix) make an object, number
// keys written in decimal ({[1] = "a", [3] = "c"} is {"1": "a", "3": "c"}).
func (c *converter) table(t *lua.LTable, path string) (any, bool, error) {
	key, _ := t.Next(lua.LNil)
	if key.Type() == lua.LTNil {
		switch c.emptyAt(path) {
		case emptyMap:
			return map[string]any{}, true, nil
		case emptyList:
			return []any{}, true, nil
		}
		return nil, false, nil
	}
	keys, isList, err := tableKeys(t, path)
	if err != nil {
		return nil, false, err
	}
	if isList {
		return c.list(t, path)
	}
	return c.object(t, keys, path)
}

// tableKeys lists a table's keys as object keys, and tells whether they
// are 1..n in the order the table iterates them, which makes a list.
func tableKeys(t *lua.LTable, path string) (keys []string, isList bool, err error) {
	isList = true
	next := 1
	t.ForEach(func(k, _ lua.LValue) {
		if err != nil {
			return
		}
		switch x := k.(type) {
		case lua.LString:
			keys, isList = append(keys, string(x)), false
		case lua.LNumber:
			f := float64(x)
			if f != math.Trunc(f) || math.IsInf(f, 0) || math.Abs(f) >= 1<<53 {
				err = fmt.Errorf("%scannot convert a table keyed by the number %v", at(path), f)
				return
			}
			if int(f) != next {
				isList = false
			}
			next++
			keys = append(keys, strconv.FormatInt(int64(f), 10))
		default:
			err = fmt.Errorf("%scannot convert a table keyed by a %s", at(path), k.Type())
		}
	})
	return keys, isList, err
}

// list converts a table whose keys are 1..n.
func (c *converter) list(t *lua.LTable, path string) (any, bool, error) {
	n := t.Len()
	out := make([]any, 0, n)
	for i := 1; i <= n; i++ {
		item, keep, err := c.convert(t.RawGetInt(i), path)
		if err != nil {
			return nil, false, err
		}
		if keep {
			out = append(out, item)
		}
	}
	return out, true, nil
}

// object converts a table under the given keys (as tableKeys wrote them).
func (c *converter) object(t *lua.LTable, keys []string, path string) (any, bool, error) {
	out := map[string]any{}
	sort.Strings(keys)
	for _, k := range keys {
		v := t.RawGetString(k)
		if v == lua.LNil {
			if n, err := strconv.ParseInt(k, 10, 64); err == nil {
				v = t.RawGetInt(int(n))
				if v == lua.LNil {
					v = t.RawGet(lua.LNumber(n))
				}
			}
		}
		item, keep, err := c.convert(v, join(path, k))
		if err != nil {
			return nil, false, err
		}
		if keep {
			out[k] = item
		}
	}
	return out, true, nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// emptyAt says whether a reference has an empty map or list at path (list
// positions aside); a map wins over a list.
func (c *converter) emptyAt(path string) emptyKind {
	if c.empties == nil {
		c.empties = map[string]emptyKind{}
		for _, r := range c.refs {
			collectEmpties(r, "", c.empties)
		}
	}
	return c.empties[path]
}

func collectEmpties(v any, path string, into map[string]emptyKind) {
	switch x := v.(type) {
	case map[string]any:
		if len(x) == 0 && path != "" {
			into[path] = emptyMap
			return
		}
		for k, item := range x {
			collectEmpties(item, join(path, k), into)
		}
	case []any:
		if len(x) == 0 && path != "" {
			if into[path] != emptyMap {
				into[path] = emptyList
			}
			return
		}
		for _, item := range x {
			collectEmpties(item, path, into)
		}
	}
}

// number is a whole number as int64, any other finite number as float64,
// as decoding its JSON form into an unstructured object gives.
func number(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("cannot convert the number %v", f)
	}
	if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		return int64(f), nil
	}
	return f, nil
}
