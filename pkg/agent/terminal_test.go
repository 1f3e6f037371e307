package agent

import (
	"errors"
	"fmt"
	"testing"
)

func TestTerminal(t *testing.T) {
	lost := errors.New("read cluster member3 from mco: connection refused")
	tests := []struct {
		name     string
		err      error
		refusals int
		wantStop bool
		want     error
	}{
		{name: "mco away is retried", err: lost},
		{name: "a controller that stopped is retried", err: errors.New("the controllers stopped")},
		{name: "one refusal is retried: a server just started may not know the ServiceAccount yet", err: lost, refusals: 1},
		{name: "a second refusal in a row ends the agent", err: lost, refusals: 2, wantStop: true, want: errRefused},
		{name: "a deleted Cluster ends the agent", err: fmt.Errorf("session: %w", errGone), wantStop: true, want: errGone},
		{name: "a Cluster the agent may not claim ends it", err: &claimError{msg: "taken"}, wantStop: true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			stop, why := terminal(tt.err, tt.refusals)
			if stop != tt.wantStop {
				t.Fatalf("terminal(%v, %d) = %v, want %v", tt.err, tt.refusals, stop, tt.wantStop)
			}
			if tt.want != nil && !errors.Is(why, tt.want) {
				t.Errorf("reason %v, want %v", why, tt.want)
			}
			if stop && why == nil {
				t.Error("stopped without a reason")
			}
		})
	}
}
