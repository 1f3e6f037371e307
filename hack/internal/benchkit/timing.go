package benchkit

import (
	"flag"
	"fmt"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// The values of the benchmarks' -timing flag.
const (
	// TimingDefaults runs mco's components with their own defaults (a
	// member's status collected every 10 s), as a user runs them.
	TimingDefaults = "defaults"
	// TimingLocalUp runs them as local-up does: members probed every 2 s,
	// so a demo sees a change within seconds.
	TimingLocalUp = "local-up"
)

// TimingFlag registers -timing on fs; the function it returns gives the
// chosen timing once fs is parsed.
func TimingFlag(fs *flag.FlagSet) func() (*localcluster.Timing, error) {
	mode := fs.String("timing", TimingDefaults, fmt.Sprintf("how often mco probes the members and collects their status: %q (the components' own defaults, as a user runs them) or %q (local-up's quick probes)", TimingDefaults, TimingLocalUp))
	return func() (*localcluster.Timing, error) {
		t := localcluster.DefaultTiming()
		switch *mode {
		case TimingDefaults:
			t.BinaryDefaults = true
		case TimingLocalUp:
		default:
			return nil, fmt.Errorf("-timing is %q or %q, not %q", TimingDefaults, TimingLocalUp, *mode)
		}
		return &t, nil
	}
}

// TimingNote says in a report which timing a run had.
func TimingNote(t *localcluster.Timing) string {
	if t != nil && t.BinaryDefaults {
		return "mco's components run with their own defaults (-timing " + TimingDefaults + ": each member's status collected every 10 s)"
	}
	return "mco's components run with local-up's timing (-timing " + TimingLocalUp + ": each member probed every 2 s)"
}
