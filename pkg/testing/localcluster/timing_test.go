package localcluster

import (
	"strings"
	"testing"
	"time"
)

func TestTimingValidate(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		change func(*Timing)
		want   string // "" when valid
	}{
		{name: "the default timing is valid", change: func(*Timing) {}},
		{name: "a status update under a second is refused", change: func(t *Timing) { t.StatusUpdate = 500 * time.Millisecond }, want: "at least 1s"},
		{name: "a failure threshold of one status update is at the edge", change: func(t *Timing) { t.Failure = 2 * time.Second }, want: "failure threshold"},
		{name: "a lease shorter than five renewals is refused", change: func(t *Timing) { t.LeaseDuration = 8 * time.Second }, want: "lease duration"},
		{name: "a monitor period longer than the grace period is refused", change: func(t *Timing) { t.MonitorPeriod = time.Minute }, want: "monitor period"},
		{name: "short leader election periods are valid", change: func(t *Timing) {
			t.LeaderLease, t.LeaderRenew, t.LeaderRetry = 8*time.Second, 6*time.Second, time.Second
		}},
		{name: "a renew deadline as long as the lease is refused", change: func(t *Timing) {
			t.LeaderLease, t.LeaderRenew, t.LeaderRetry = 6*time.Second, 6*time.Second, time.Second
		}, want: "leader election"},
		{name: "short agent retries are valid", change: func(t *Timing) { t.AgentRetryInitial, t.AgentRetryMax = time.Second, 8*time.Second }},
		{name: "an agent retry without growth is refused", change: func(t *Timing) { t.AgentRetryInitial, t.AgentRetryMax = 2*time.Second, 2*time.Second }, want: "agent retries"},
		{name: "an agent retry set half-way is refused", change: func(t *Timing) { t.AgentRetryMax = time.Minute }, want: "agent retries"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			timing := DefaultTiming()
			tc.change(&timing)
			err := timing.Validate()
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("refused: %v", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
				t.Errorf("got %v, want an error naming %q", err, tc.want)
			}
		})
	}
}

func TestTimingFlags(t *testing.T) {
	t.Parallel()
	got := strings.Join(DefaultTiming().controllerManagerFlags(), " ")
	want := "--cluster-status-update-frequency=2s --cluster-failure-threshold=10s --cluster-success-threshold=5s " +
		"--cluster-monitor-period=5s --cluster-monitor-grace-period=30s --cluster-startup-grace-period=30s"
	if got != want {
		t.Errorf("controller-manager flags\n  %s\nwant\n  %s", got, want)
	}
	if got := strings.Join(DefaultTiming().agentFlags(), " "); !strings.HasSuffix(got, "--cluster-lease-duration=30s") {
		t.Errorf("agent flags %s lack the lease duration", got)
	}
	short := DefaultTiming()
	short.AgentRetryInitial, short.AgentRetryMax = 2*time.Second, 8*time.Second
	if got := strings.Join(short.agentFlags(), " "); !strings.HasSuffix(got, "--mco-retry-initial=2s --mco-retry-max=8s") {
		t.Errorf("agent flags %s lack the retry periods", got)
	}
	defaults := DefaultTiming()
	defaults.BinaryDefaults = true
	defaults.LeaderLease, defaults.LeaderRenew, defaults.LeaderRetry = 15*time.Second, 10*time.Second, 2*time.Second
	if err := defaults.Validate(); err != nil {
		t.Errorf("the binaries' defaults: %v", err)
	}
	if got := append(append(defaults.controllerManagerFlags(), defaults.agentFlags()...), defaults.leaderFlags()...); len(got) != 0 {
		t.Errorf("the binaries' defaults pass flags %v", got)
	}
}
