package interpret

import "sigs.k8s.io/yaml"

// toYAML prints a value as karmadactl interpret prints its results:
// sigs.k8s.io/yaml's Marshal, which takes the value's JSON form (field
// names, omitted empty fields, quantities as strings) and writes it as
// YAML with keys sorted, two-space indentation and list items at their
// key's indentation.
func toYAML(v any) ([]byte, error) {
	return yaml.Marshal(v)
}
