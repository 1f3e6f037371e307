package differential

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
)

// fieldRef is one field of an object: where it is and what it holds.
type fieldRef struct {
	path  []any
	value any
}

// mutationSeed seeds every kind's mutations; change it to explore others.
const mutationSeed = 20260801

// Mutations derives n cases of kind from seeds (valid create cases),
// deterministically: mutation i of a kind is the same in every run with the
// same seeds, whatever n is, so that a longer run extends the default one.
func Mutations(kind Kind, seeds []Case, n int) []Case {
	if len(seeds) == 0 {
		return nil
	}
	h := fnv.New64a()
	h.Write([]byte(kind.Dir))
	out := make([]Case, 0, n)
	for i := 0; i < n; i++ {
		rng := rand.New(rand.NewPCG(mutationSeed, h.Sum64()^uint64(i)))
		seed := seeds[rng.IntN(len(seeds))]
		obj, edits := mutate(seed.Object, rng)
		out = append(out, Case{
			Name:   fmt.Sprintf("%s/mutation-%04d", kind.Dir, i),
			Source: fmt.Sprintf("%s with %s", seed.Name, strings.Join(edits, ", ")),
			Kind:   kind,
			Object: obj,
		})
	}
	return out
}

// mutate returns a copy of obj with one to three random edits, and the
// edits made.
func mutate(obj map[string]any, rng *rand.Rand) (map[string]any, []string) {
	out := runtime.DeepCopyJSON(obj)
	var edits []string
	for n := 1 + rng.IntN(3); n > 0; n-- {
		fields := mutableFields(out)
		if len(fields) == 0 {
			break
		}
		f := fields[rng.IntN(len(fields))]
		edits = append(edits, applyEdit(out, f, rng))
	}
	return out, edits
}

// mutableFields lists every field in path order, but apiVersion, kind and
// metadata.namespace, which the harness owns.
func mutableFields(obj map[string]any) []fieldRef {
	var out []fieldRef
	var walk func(path []any, v any)
	walk = func(path []any, v any) {
		if len(path) > 0 {
			out = append(out, fieldRef{path: path, value: v})
		}
		switch t := v.(type) {
		case map[string]any:
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				p := appendPath(path, k)
				if owned(p) {
					continue
				}
				walk(p, t[k])
			}
		case []any:
			for i, item := range t {
				walk(appendPath(path, i), item)
			}
		}
	}
	walk(nil, obj)
	return out
}

func owned(path []any) bool {
	switch renderPath(path) {
	case "apiVersion", "kind", "metadata.namespace":
		return true
	}
	return false
}

// Values an edit may set, per JSON type.
var (
	stringValues = []string{"", "Bogus", "Invalid_Name!", strings.Repeat("x", 300)}
	intValues    = []int64{0, -1, 2147483648}
	floatValues  = []float64{0, -1}
)

// applyEdit changes field f of obj and says what it did: drop the field,
// or set a value of the field's type, or duplicate a list item.
func applyEdit(obj map[string]any, f fieldRef, rng *rand.Rand) string {
	where := renderPath(f.path)
	if rng.IntN(4) == 0 {
		setField(obj, f.path, nil, true)
		return "drop " + where
	}
	var v any
	switch t := f.value.(type) {
	case string:
		v = stringValues[rng.IntN(len(stringValues))]
	case int64:
		v = intValues[rng.IntN(len(intValues))]
	case float64:
		v = floatValues[rng.IntN(len(floatValues))]
	case bool:
		v = !t
	case []any:
		if len(t) == 0 {
			setField(obj, f.path, nil, true)
			return "drop " + where
		}
		i := rng.IntN(len(t))
		setField(obj, f.path, append(t, runtime.DeepCopyJSONValue(t[i])), false)
		return fmt.Sprintf("duplicate %s[%d]", where, i)
	default:
		setField(obj, f.path, nil, true)
		return "drop " + where
	}
	setField(obj, f.path, v, false)
	return fmt.Sprintf("set %s=%s", where, renderValue(v))
}

// setField sets (or removes) the field at path.
func setField(obj map[string]any, path []any, v any, remove bool) {
	var parent any = obj
	for _, seg := range path[:len(path)-1] {
		switch p := parent.(type) {
		case map[string]any:
			parent = p[seg.(string)]
		case []any:
			parent = p[seg.(int)]
		}
	}
	last := path[len(path)-1]
	switch p := parent.(type) {
	case map[string]any:
		if remove {
			delete(p, last.(string))
		} else {
			p[last.(string)] = v
		}
	case []any:
		i := last.(int)
		if !remove {
			p[i] = v
			return
		}
		// Removing a list item: rebuild the list in its parent.
		setField(obj, path[:len(path)-1], append(append([]any{}, p[:i]...), p[i+1:]...), false)
	}
}
