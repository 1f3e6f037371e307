package intern

import "sort"

// Pairs is a small string map kept compactly: its keys and values side by
// side (key, value, key, value…), ordered by key, each string canonical.
// A Go map of a handful of entries takes some 300 bytes however short its
// strings; Pairs of two entries take 64. For caches that hold a map per
// object yet read it rarely (labels and annotations of members' objects).
// The zero value is an absent map; an empty one has a non-nil kv.
type Pairs struct {
	kv []string
}

// PairsOf keeps m as Pairs.
func PairsOf(m map[string]string) Pairs {
	if m == nil {
		return Pairs{}
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	kv := make([]string, 0, 2*len(m))
	for _, k := range keys {
		kv = append(kv, String(k), String(m[k]))
	}
	return Pairs{kv: kv}
}

// Map returns a new map of the pairs, which the caller may change; nil
// for an absent map.
func (p Pairs) Map() map[string]string {
	if p.kv == nil {
		return nil
	}
	m := make(map[string]string, len(p.kv)/2)
	for i := 0; i+1 < len(p.kv); i += 2 {
		m[p.kv[i]] = p.kv[i+1]
	}
	return m
}
