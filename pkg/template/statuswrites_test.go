package template

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

func TestStatusWrites(t *testing.T) {
	t.Parallel()
	s := NewStatusWrites()
	cases := []struct {
		name string
		do   func()
		rv   string
		want string
	}{
		{"a resourceVersion no status write produced is its own", func() {}, "10", "10"},
		{"a status write leads back to the version before it", func() { s.Record("u", "10", "11") }, "11", "10"},
		{"a chain of status writes leads back to the first version", func() { s.Record("u", "11", "12") }, "12", "10"},
		{"a spec change after the writes stands for itself", func() {}, "13", "13"},
		{"a status write after a spec change leads back to the spec change", func() { s.Record("u", "13", "14") }, "14", "13"},
		{"another template is unaffected", func() {}, "14", "14"},
	}
	for i, c := range cases {
		c.do()
		uid := "u"
		if i == len(cases)-1 {
			uid = "other"
		}
		if got := s.Effective(types.UID(uid), c.rv); got != c.want {
			t.Errorf("%s: Effective(%s) = %s, want %s", c.name, c.rv, got, c.want)
		}
	}
}
