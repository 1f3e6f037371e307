package component

import (
	"testing"

	"github.com/spf13/pflag"
)

func TestProcsDecision(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name     string
		def      int
		args     []string
		envSet   bool
		wantN    int
		wantFrom string
	}{
		{"the component's default", 1, nil, false, 1, procsFromDefault},
		{"GOMAXPROCS before the default", 1, nil, true, 0, procsFromEnv},
		{"the flag before GOMAXPROCS", 1, []string{"--gomaxprocs=3"}, true, 3, procsFromFlag},
		{"the flag at 0: the runtime's own", 1, []string{"--gomaxprocs=0"}, false, 0, procsFromRuntime},
		{"no default: the runtime's own", 0, nil, false, 0, procsFromRuntime},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			o := ProcsOptions{Max: c.def}
			fs := pflag.NewFlagSet("test", pflag.ContinueOnError)
			o.AddFlags(fs)
			if err := fs.Parse(c.args); err != nil {
				t.Fatal(err)
			}
			if n, from := o.decision(c.envSet); n != c.wantN || from != c.wantFrom {
				t.Errorf("decision = %d, %q; want %d, %q", n, from, c.wantN, c.wantFrom)
			}
		})
	}
}

func TestProcsOptionsValidate(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		max     int
		wantErr bool
	}{{0, false}, {1, false}, {-1, true}} {
		o := ProcsOptions{Max: c.max}
		if err := o.Validate(); (err != nil) != c.wantErr {
			t.Errorf("Validate(%d) = %v, want error %t", c.max, err, c.wantErr)
		}
	}
}
