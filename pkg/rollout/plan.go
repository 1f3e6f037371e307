package rollout

import (
	"fmt"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// Wave is a policy wave resolved against the placement.
type Wave struct {
	Name string
	// Clusters of the placement in the wave, in a stable order.
	Clusters []string
	// MaxUnavailable is how many of them may be at the new revision and
	// not yet healthy at once (at least 1).
	MaxUnavailable int
	HealthyFor     time.Duration
	Pause          bool
}

// Input is everything one decision reads.
type Input struct {
	Now time.Time
	// Spec and Status are the Rollout as last written.
	Spec   rolloutv1alpha1.RolloutSpec
	Status rolloutv1alpha1.RolloutStatus
	// Waves hold every cluster of the placement, each in one wave.
	Waves []Wave
	// Target is the revision of the template's content now; ChangeCause
	// its change cause.
	Target      int64
	ChangeCause string
	Timeout     time.Duration
	OnFailure   rolloutv1alpha1.FailureAction
	// Held stops the waves without it being a pause of the rollout (the
	// binding's dispatching is suspended).
	Held bool
	// Observed is per cluster what its Work says.
	Observed map[string]Observation
	// HistoryLimit is how many earlier revisions the history keeps.
	HistoryLimit int
}

// Event is one thing worth an Event on the template.
type Event struct {
	Warning         bool
	Reason, Message string
}

// Decision is the Rollout's next status and what else to do.
type Decision struct {
	Status rolloutv1alpha1.RolloutStatus
	Events []Event
	// RollbackTo, when not 0, is the revision whose content must be
	// written back into the template (onFailure: Rollback).
	RollbackTo int64
	// After is when to decide again if nothing changes first; 0 for never.
	After time.Duration
	// Waves are the waves that ended in this decision, for metrics.
	Waves []WaveResult
	// Outcomes are the rollouts that ended in this decision: complete,
	// failed, rolled_back or superseded.
	Outcomes []string
}

// WaveResult is how one wave ended and how long it took.
type WaveResult struct {
	Wave     string
	Result   string // passed or failed
	Duration time.Duration
}

// Outcomes of a rollout, for metrics.
const (
	OutcomeComplete   = "complete"
	OutcomeFailed     = "failed"
	OutcomeRolledBack = "rolled_back"
	OutcomeSuperseded = "superseded"
)

// Event reasons.
const (
	ReasonRolloutStarted  = "RolloutStarted"
	ReasonWaveStarted     = "WaveStarted"
	ReasonWavePassed      = "WavePassed"
	ReasonWaveFailed      = "WaveFailed"
	ReasonClusterFailed   = "ClusterFailed"
	ReasonWavePaused      = "WavePaused"
	ReasonPaused          = "Paused"
	ReasonResumed         = "Resumed"
	ReasonRollingBack     = "RollingBack"
	ReasonRolledBack      = "RolledBack"
	ReasonRolloutComplete = "RolloutComplete"
	ReasonHeld            = "DispatchingSuspended"
)

// Decide advances a rollout by what it observes.
func Decide(in Input) Decision {
	d := &decider{in: in, st: *in.Status.DeepCopy(), now: metav1.NewTime(in.Now)}
	d.run()
	if h := d.history(d.in.Target); d.in.ChangeCause != "" {
		h.ChangeCause = d.in.ChangeCause // a change cause annotated after the change
	}
	d.pruneHistory()
	return Decision{Status: d.st, Events: d.events, RollbackTo: d.rollbackTo, After: d.after, Waves: d.waves, Outcomes: d.outcomes}
}

type decider struct {
	in         Input
	st         rolloutv1alpha1.RolloutStatus
	now        metav1.Time
	events     []Event
	rollbackTo int64
	after      time.Duration
	waves      []WaveResult
	outcomes   []string
}

func (d *decider) run() {
	switch {
	case d.st.CurrentRevision == 0:
		d.first()
	case d.in.Target != d.st.CurrentRevision:
		d.newRevision()
	}
	d.syncClusters()
	d.advance()
}

// first takes a template as it is: its content runs, or is about to run,
// everywhere; there is nothing earlier to protect.
func (d *decider) first() {
	d.st.CurrentRevision, d.st.StableRevision = d.in.Target, d.in.Target
	d.history(d.in.Target)
	d.st.WaveIndex, d.st.Wave, d.st.WaveStartTime = int32(len(d.in.Waves)), "", nil
	d.complete("Revision %d is the template's first; it goes to every cluster at once.", d.in.Target)
}

// newRevision starts the rollout of the template's new content, or the
// return to an earlier revision that was asked for.
func (d *decider) newRevision() {
	from := d.st.CurrentRevision
	wasComplete := d.isTrue(rolloutv1alpha1.ConditionComplete)
	if wasComplete {
		d.st.StableRevision = from
	}
	d.st.CurrentRevision = d.in.Target
	d.history(d.in.Target)
	d.set(rolloutv1alpha1.ConditionFailed, false, "NoFailure", "")
	d.set(rolloutv1alpha1.ConditionComplete, false, "RolloutInProgress", fmt.Sprintf("Revision %d is on its way.", d.in.Target))
	if rb := d.in.Spec.Rollback; rb != nil && rb.ToRevision == d.in.Target && rb.FromRevision == from {
		for i := range d.st.Clusters {
			if c := &d.st.Clusters[i]; c.Revision != d.in.Target {
				d.assign(c, d.in.Target)
			}
		}
		d.st.WaveIndex, d.st.Wave, d.st.WaveStartTime = int32(len(d.in.Waves)), "", nil
		d.st.StableRevision = d.in.Target
		d.event(false, ReasonRollingBack, "Rolling back from revision %d to revision %d on every cluster at once", from, d.in.Target)
		return
	}
	d.st.WaveIndex, d.st.Wave, d.st.WaveStartTime = 0, "", nil
	if wasComplete {
		d.event(false, ReasonRolloutStarted, "Rolling out revision %d in %d wave(s)", d.in.Target, len(d.in.Waves))
	} else {
		d.outcomes = append(d.outcomes, OutcomeSuperseded)
		d.event(false, ReasonRolloutStarted, "Revision %d supersedes revision %d; starting again from the first wave", d.in.Target, from)
	}
}

// syncClusters keeps one entry per cluster of the placement, in wave
// order, with its health at its revision.
func (d *decider) syncClusters() {
	old := map[string]rolloutv1alpha1.ClusterRevision{}
	for _, c := range d.st.Clusters {
		old[c.Name] = c
	}
	var out []rolloutv1alpha1.ClusterRevision
	for i, w := range d.in.Waves {
		for _, name := range w.Clusters {
			c, ok := old[name]
			if !ok {
				c = rolloutv1alpha1.ClusterRevision{Name: name}
				d.assign(&c, d.newcomerRevision(i))
			}
			c.Wave = w.Name
			d.observe(&c)
			out = append(out, c)
		}
	}
	d.st.Clusters = out
}

// newcomerRevision is what a cluster joining the placement gets: the
// current revision where its wave has passed, the stable one otherwise
// (the current wave's turn comes in assign).
func (d *decider) newcomerRevision(wave int) int64 {
	if int(d.st.WaveIndex) > wave || d.st.StableRevision == 0 {
		return d.st.CurrentRevision
	}
	return d.st.StableRevision
}

// observe brings a cluster's health up to date. The transition time moves
// only when the cluster turns healthy or stops being so.
func (d *decider) observe(c *rolloutv1alpha1.ClusterRevision) {
	o := d.in.Observed[c.Name]
	health, msg := rolloutv1alpha1.ClusterHealthUnknown, o.Message
	switch {
	case o.Revision == c.Revision:
		health = o.Health
		if health == rolloutv1alpha1.ClusterHealthy {
			msg = ""
		}
	case o.Revision != 0:
		msg = fmt.Sprintf("runs revision %d; revision %d not applied yet", o.Revision, c.Revision)
	}
	if (health == rolloutv1alpha1.ClusterHealthy) != (c.Health == rolloutv1alpha1.ClusterHealthy) || c.LastTransitionTime == nil {
		c.LastTransitionTime = d.now.DeepCopy()
	}
	c.Health, c.Message = health, msg
	if health == rolloutv1alpha1.ClusterHealthy {
		if r := d.record(c.Revision, c.Name); r.HealthyTime == nil {
			r.HealthyTime, r.Result, r.Message = d.now.DeepCopy(), rolloutv1alpha1.ResultHealthy, ""
		}
	}
}

// assign gives a cluster a revision.
func (d *decider) assign(c *rolloutv1alpha1.ClusterRevision, rev int64) {
	if c.Revision != 0 && c.Revision != rev {
		if r := d.findRecord(c.Revision, c.Name); r != nil && r.Result == rolloutv1alpha1.ResultPending {
			r.Result = rolloutv1alpha1.ResultReplaced
		}
	}
	c.Revision, c.Health, c.LastTransitionTime = rev, rolloutv1alpha1.ClusterHealthUnknown, d.now.DeepCopy()
	c.Message = "not applied yet"
	r := d.record(rev, c.Name)
	r.AppliedTime, r.HealthyTime, r.FailedTime = d.now.DeepCopy(), nil, nil
	r.Result, r.Message = rolloutv1alpha1.ResultPending, ""
}

func (d *decider) event(warning bool, reason, format string, args ...any) {
	d.events = append(d.events, Event{Warning: warning, Reason: reason, Message: fmt.Sprintf(format, args...)})
}

// wait asks for another decision after dur at the latest.
func (d *decider) wait(dur time.Duration) {
	if dur <= 0 {
		dur = time.Second
	}
	if d.after == 0 || dur < d.after {
		d.after = dur
	}
}
