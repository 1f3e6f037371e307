package lua

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"

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
		f, err := x.Float64()
		if err != nil {
			return nil, fmt.Errorf("number %q: %w", x, err)
		}
		return lua.LNumber(f), nil
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

// FromLua converts a Lua value into the Go value its JSON form decodes to:
// a table with keys 1..n becomes a slice, a table with string keys a map,
// a whole number an int64 and any other number a float64.
//
// Lua cannot tell an empty list from an empty map. An empty table takes
// the shape of ref, the value at the same place in the object the script
// was given: a map when ref is a map, else a list.
//
// Tables mixing string and number keys, sparse lists, tables that hold
// themselves, functions and other Lua-only values are refused.
func FromLua(v lua.LValue, ref any) (any, error) {
	return fromLua(v, ref, map[*lua.LTable]bool{})
}

func fromLua(v lua.LValue, ref any, visiting map[*lua.LTable]bool) (any, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(x), nil
	case lua.LString:
		return string(x), nil
	case lua.LNumber:
		return number(float64(x))
	case *lua.LTable:
		if visiting[x] {
			return nil, fmt.Errorf("cannot convert a table that holds itself")
		}
		visiting[x] = true
		defer delete(visiting, x)
		return fromTable(x, ref, visiting)
	}
	return nil, fmt.Errorf("cannot convert a Lua %s", v.Type())
}

// number is a whole number as int64, any other finite number as float64.
func number(f float64) (any, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, fmt.Errorf("cannot convert the number %v", f)
	}
	if f == math.Trunc(f) && f >= math.MinInt64 && f < math.MaxInt64 {
		return int64(f), nil
	}
	return f, nil
}

func fromTable(t *lua.LTable, ref any, visiting map[*lua.LTable]bool) (any, error) {
	key, _ := t.Next(lua.LNil)
	switch key.Type() {
	case lua.LTNil:
		if _, isMap := ref.(map[string]any); isMap {
			return map[string]any{}, nil
		}
		return []any{}, nil
	case lua.LTNumber:
		return fromList(t, ref, visiting)
	case lua.LTString:
		return fromMap(t, ref, visiting)
	}
	return nil, fmt.Errorf("cannot convert a table keyed by %s", key.Type())
}

func fromList(t *lua.LTable, ref any, visiting map[*lua.LTable]bool) (any, error) {
	refs, _ := ref.([]any)
	n := t.Len()
	out := make([]any, 0, n)
	var err error
	t.ForEach(func(k, _ lua.LValue) {
		if err != nil {
			return
		}
		i, ok := k.(lua.LNumber)
		if !ok {
			err = fmt.Errorf("cannot convert a table with both number and %s keys", k.Type())
		} else if float64(i) != math.Trunc(float64(i)) || i < 1 || int(i) > n {
			err = fmt.Errorf("cannot convert a sparse list (key %v, length %d)", i, n)
		}
	})
	if err != nil {
		return nil, err
	}
	for i := 1; i <= n; i++ {
		if t.RawGetInt(i) == lua.LNil {
			return nil, fmt.Errorf("cannot convert a sparse list (no value at %d of %d)", i, n)
		}
		var r any
		if i-1 < len(refs) {
			r = refs[i-1]
		}
		item, err := fromLua(t.RawGetInt(i), r, visiting)
		if err != nil {
			return nil, fmt.Errorf("[%d]: %w", i, err)
		}
		out = append(out, item)
	}
	return out, nil
}

func fromMap(t *lua.LTable, ref any, visiting map[*lua.LTable]bool) (any, error) {
	refs, _ := ref.(map[string]any)
	out := map[string]any{}
	var keys []string
	var err error
	t.ForEach(func(k, _ lua.LValue) {
		if err != nil {
			return
		}
		s, ok := k.(lua.LString)
		if !ok {
			err = fmt.Errorf("cannot convert a table with both string and %s keys", k.Type())
			return
		}
		keys = append(keys, string(s))
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(keys)
	for _, k := range keys {
		item, err := fromLua(t.RawGetString(k), refs[k], visiting)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = item
	}
	return out, nil
}
