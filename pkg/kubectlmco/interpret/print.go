package interpret

import (
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
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		return nil, err
	}
	return yaml.Marshal(generic)
}
