package interpret

import (
	"encoding/json"

	"sigs.k8s.io/yaml"
)

// toYAML prints a value as karmadactl interpret prints its results: its
// JSON form (field names, omitted empty fields, quantities as strings)
// decoded into plain values (numbers as float64), then sigs.k8s.io/yaml's
// YAML (keys sorted, two-space indentation, list items at their key's
// indentation).
func toYAML(v any) ([]byte, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var plain any
	if err := json.Unmarshal(data, &plain); err != nil {
		return nil, err
	}
	return yaml.Marshal(plain)
}
