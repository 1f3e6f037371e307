package interpret

import "testing"

func TestToYAML(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   any
		want string
	}{
		{"whole number", int32(3), "3\n"},
		{"beyond float64's integers, rounded as karmadactl rounds them", map[string]any{"big": int64(9007199254740993)}, "big: 9007199254740992\n"},
		{"fraction", map[string]any{"ratio": 0.5}, "ratio: 0.5\n"},
		{"nil", nil, "null\n"},
		{"nested list at its key's indentation", map[string]any{"a": []any{map[string]any{"b": 1, "c": map[string]any{"d": 2}}}}, "a:\n- b: 1\n  c:\n    d: 2\n"},
		{"empty list and map", map[string]any{"l": []any{}, "m": map[string]any{}}, "l: []\nm: {}\n"},
	} {
		got, err := toYAML(tc.in)
		if err != nil || string(got) != tc.want {
			t.Errorf("%s: toYAML = %q, %v; want %q", tc.name, got, err, tc.want)
		}
	}
}
