package interpret

import (
	"bytes"
	"encoding/json"

	yaml "go.yaml.in/yaml/v3"
)

// toYAML prints a value as its JSON form does (field names, omitted empty
// fields, quantities as strings), in YAML with four-space indentation.
func toYAML(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var generic any
	if err := dec.Decode(&generic); err != nil {
		return nil, err
	}
	return yaml.Marshal(numbers(generic))
}

// numbers turns the json.Numbers of a decoded value into int64 where they
// are whole (a float64 would round large integers) and float64 otherwise.
func numbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i
		}
		f, _ := t.Float64()
		return f
	case map[string]any:
		for k, e := range t {
			t[k] = numbers(e)
		}
	case []any:
		for i, e := range t {
			t[i] = numbers(e)
		}
	}
	return v
}
