package localcluster

import (
	"fmt"
	"time"
)

// Timing holds the periods that decide how soon mco sees a member's health
// change: the --cluster-* flags of mco-controller-manager and of every
// mco-agent. They are per process, so an environment sets them once for
// all its tests.
type Timing struct {
	// StatusUpdate is how often a member's health is probed and its
	// status collected (by mco-controller-manager for a Push member, by
	// its agent for a Pull member, which renews its Lease as often).
	StatusUpdate time.Duration `json:"statusUpdate"`
	// Failure and Success are how long a member must keep failing, or
	// answering, before its Ready condition turns.
	Failure time.Duration `json:"failure"`
	Success time.Duration `json:"success"`
	// MonitorPeriod is how often mco-controller-manager looks at the
	// Pull members' Leases.
	MonitorPeriod time.Duration `json:"monitorPeriod"`
	// MonitorGrace is how long a Pull member's Lease may go unrenewed
	// before it is Unknown, and StartupGrace the same for a Cluster
	// just registered. LeaseDuration is the duration its agent writes on
	// the Lease.
	MonitorGrace  time.Duration `json:"monitorGrace"`
	StartupGrace  time.Duration `json:"startupGrace"`
	LeaseDuration time.Duration `json:"leaseDuration"`
	// LeaderLease, LeaderRenew and LeaderRetry are the leader election
	// periods of mco-scheduler, mco-controller-manager and the agents
	// (their binaries' defaults when zero): a replica killed while it leads
	// holds the others back for up to LeaderLease.
	LeaderLease time.Duration `json:"leaderLease,omitempty"`
	LeaderRenew time.Duration `json:"leaderRenew,omitempty"`
	LeaderRetry time.Duration `json:"leaderRetry,omitempty"`
	// AgentRetryInitial and AgentRetryMax bound the agents' backoff while
	// mco-apiserver does not answer (their binary's defaults when zero):
	// the first wait, doubled at each failure up to the longest.
	AgentRetryInitial time.Duration `json:"agentRetryInitial,omitempty"`
	AgentRetryMax     time.Duration `json:"agentRetryMax,omitempty"`
	// BinaryDefaults passes none of these flags: the components run with
	// their own defaults, as a user runs them (benchmarks measure that, not
	// local-up's quick probes). The fields above are then ignored.
	BinaryDefaults bool `json:"binaryDefaults,omitempty"`
}

// DefaultTiming is the timing of `make local-up`: short enough that a
// demo sees a member's change within seconds.
func DefaultTiming() Timing {
	return Timing{
		StatusUpdate: 2 * time.Second,
		Failure:      10 * time.Second, Success: 5 * time.Second,
		MonitorPeriod: 5 * time.Second,
		MonitorGrace:  30 * time.Second, StartupGrace: 30 * time.Second,
		LeaseDuration: 30 * time.Second,
	}
}

// Validate refuses a timing whose thresholds sit at the edge of what one
// probe, or one missed renewal, can cross: each threshold must span at
// least two status updates (a probe takes up to 5 s to give up on a member
// that does not answer), and a Lease must outlast several renewals.
func (t Timing) Validate() error {
	if t.BinaryDefaults {
		return nil // the components check their own
	}
	if t.StatusUpdate < time.Second {
		return fmt.Errorf("timing: status update every %s, want at least 1s", t.StatusUpdate)
	}
	for name, d := range map[string]time.Duration{"failure threshold": t.Failure, "success threshold": t.Success} {
		if d < 2*t.StatusUpdate {
			return fmt.Errorf("timing: %s %s is less than two status updates (%s)", name, d, 2*t.StatusUpdate)
		}
	}
	if t.MonitorPeriod < time.Second || t.MonitorPeriod > t.MonitorGrace {
		return fmt.Errorf("timing: monitor period %s, want 1s to the monitor grace period (%s)", t.MonitorPeriod, t.MonitorGrace)
	}
	if (t.LeaderLease != 0 || t.LeaderRenew != 0 || t.LeaderRetry != 0) &&
		!(t.LeaderRetry >= time.Second && 2*t.LeaderRetry <= t.LeaderRenew && t.LeaderRenew < t.LeaderLease) {
		return fmt.Errorf("timing: leader election %s/%s/%s, want a retry period of at least 1s, a renew deadline of at least two retries and a lease longer than the renew deadline",
			t.LeaderLease, t.LeaderRenew, t.LeaderRetry)
	}
	if (t.AgentRetryInitial != 0 || t.AgentRetryMax != 0) &&
		!(t.AgentRetryInitial >= time.Second && t.AgentRetryMax >= 2*t.AgentRetryInitial) {
		return fmt.Errorf("timing: agent retries after %s up to %s, want a first wait of at least 1s and a longest of at least twice that",
			t.AgentRetryInitial, t.AgentRetryMax)
	}
	for name, d := range map[string]time.Duration{"monitor grace period": t.MonitorGrace, "startup grace period": t.StartupGrace, "lease duration": t.LeaseDuration} {
		if d < 5*t.StatusUpdate {
			return fmt.Errorf("timing: %s %s is less than five status updates (%s)", name, d, 5*t.StatusUpdate)
		}
	}
	return nil
}

// healthFlags are the flags mco-controller-manager and mco-agent share.
func (t Timing) healthFlags() []string {
	return []string{
		"--cluster-status-update-frequency=" + t.StatusUpdate.String(),
		"--cluster-failure-threshold=" + t.Failure.String(),
		"--cluster-success-threshold=" + t.Success.String(),
	}
}

// leaderFlags are the leader election flags of mco-scheduler and
// mco-controller-manager, none when t keeps their defaults.
func (t Timing) leaderFlags() []string {
	if t.LeaderLease == 0 || t.BinaryDefaults {
		return nil
	}
	return []string{
		"--leader-elect-lease-duration=" + t.LeaderLease.String(),
		"--leader-elect-renew-deadline=" + t.LeaderRenew.String(),
		"--leader-elect-retry-period=" + t.LeaderRetry.String(),
	}
}

// controllerManagerFlags are mco-controller-manager's flags of t.
func (t Timing) controllerManagerFlags() []string {
	if t.BinaryDefaults {
		return nil
	}
	return append(append(t.healthFlags(), t.leaderFlags()...),
		"--cluster-monitor-period="+t.MonitorPeriod.String(),
		"--cluster-monitor-grace-period="+t.MonitorGrace.String(),
		"--cluster-startup-grace-period="+t.StartupGrace.String())
}

// agentFlags are mco-agent's flags of t.
func (t Timing) agentFlags() []string {
	if t.BinaryDefaults {
		return nil
	}
	flags := append(append(t.healthFlags(), t.leaderFlags()...), "--cluster-lease-duration="+t.LeaseDuration.String())
	if t.AgentRetryInitial != 0 {
		flags = append(flags, "--mco-retry-initial="+t.AgentRetryInitial.String(), "--mco-retry-max="+t.AgentRetryMax.String())
	}
	return flags
}
