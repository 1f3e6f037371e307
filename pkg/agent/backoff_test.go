package agent

import (
	"testing"
	"time"
)

func TestBackoff(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		failures int
		reset    bool
		want     time.Duration
	}{
		{"the first wait is the initial one", 1, false, 5 * time.Second},
		{"each failure doubles the wait", 3, false, 20 * time.Second},
		{"the wait stops growing at the maximum", 12, false, 5 * time.Minute},
		{"a success starts over", 6, true, 5 * time.Second},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			b := newBackoff(5*time.Second, 5*time.Minute)
			var got time.Duration
			for range c.failures {
				got = b.failed()
			}
			if c.reset {
				b.reset()
				got = b.failed()
			}
			if got != c.want {
				t.Errorf("wait after %d failures (reset %t) = %s, want %s", c.failures, c.reset, got, c.want)
			}
		})
	}
}
