package rollout

import (
	"fmt"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// advance moves the rollout as far as the clusters' health allows.
func (d *decider) advance() {
	if d.isTrue(rolloutv1alpha1.ConditionComplete) {
		d.finished()
		return
	}
	if d.isTrue(rolloutv1alpha1.ConditionFailed) {
		if !d.resumedAfterFailure() {
			if d.in.OnFailure == rolloutv1alpha1.FailureRollback {
				d.rollbackTo = d.rollbackTarget()
			}
			d.settle("", "")
			return
		}
		d.retry()
	}
	switch {
	case d.in.Spec.Paused:
		d.settle(ReasonPaused, "The rollout is paused; `kubectl mco rollout resume` goes on.")
		return
	case d.in.Held:
		d.settle(ReasonHeld, "Dispatching is suspended on the binding; the waves wait.")
		return
	}
	for int(d.st.WaveIndex) < len(d.in.Waves) {
		i := int(d.st.WaveIndex)
		w := d.in.Waves[i]
		if d.st.WaveStartTime == nil {
			if i > 0 && d.in.Waves[i-1].Pause && !d.released(i) {
				d.settle(ReasonWavePaused, fmt.Sprintf("Wave %s passed and is marked pause; `kubectl mco rollout resume` starts wave %s.",
					d.in.Waves[i-1].Name, w.Name))
				return
			}
			d.st.WaveStartTime, d.st.Wave = d.now.DeepCopy(), w.Name
			d.event(false, ReasonWaveStarted, "Wave %s (%d of %d) started: revision %d to %s",
				w.Name, i+1, len(d.in.Waves), d.in.Target, list(w.Clusters))
		}
		if d.failed(w) {
			return
		}
		d.assignWave(w)
		if waiting := d.waveWaits(w); waiting != "" {
			if w.Pause && i+1 < len(d.in.Waves) && d.released(i+1) {
				waiting += fmt.Sprintf("; resumed already: will continue past %s without pausing", w.Name)
			}
			d.progress(fmt.Sprintf("Wave %s (%d of %d): %s", w.Name, i+1, len(d.in.Waves), waiting))
			return
		}
		d.event(false, ReasonWavePassed, "Wave %s passed: revision %d is healthy on %s", w.Name, d.in.Target, list(w.Clusters))
		d.waves = append(d.waves, WaveResult{Wave: w.Name, Result: "passed", Duration: d.in.Now.Sub(d.st.WaveStartTime.Time)})
		d.st.WaveIndex, d.st.Wave, d.st.WaveStartTime = int32(i+1), "", nil
		if i+1 == len(d.in.Waves) {
			d.done(OutcomeComplete)
			return
		}
	}
	// Every wave passed before the last was decided: a rollback, which
	// waits for every cluster to be healthy.
	var waiting []string
	for i := range d.st.Clusters {
		c := &d.st.Clusters[i]
		if c.Health == rolloutv1alpha1.ClusterHealthy {
			continue
		}
		if d.timedOut(c) {
			d.fail(c, rolloutv1alpha1.FailurePause)
			return
		}
		waiting = append(waiting, fmt.Sprintf("%s (%s)", c.Name, c.Message))
	}
	if len(waiting) > 0 {
		d.set(rolloutv1alpha1.ConditionProgressing, true, ReasonRollingBack, "Rolling back; waiting for "+strings.Join(waiting, ", "))
		d.set(rolloutv1alpha1.ConditionPaused, false, "NotPaused", "")
		return
	}
	d.done(OutcomeRolledBack)
}

// done marks the current revision complete everywhere.
func (d *decider) done(outcome string) {
	d.outcomes = append(d.outcomes, outcome)
	d.st.StableRevision = d.st.CurrentRevision
	d.st.WaveIndex, d.st.Wave, d.st.WaveStartTime = int32(len(d.in.Waves)), "", nil
	d.complete("Revision %d runs on every cluster.", d.in.Target)
	if outcome == OutcomeRolledBack {
		d.event(false, ReasonRolledBack, "Rolled back: revision %d is healthy on every cluster again", d.in.Target)
		return
	}
	d.event(false, ReasonRolloutComplete, "Revision %d is healthy on every cluster", d.in.Target)
}

// complete sets the conditions of a finished rollout.
func (d *decider) complete(format string, args ...any) {
	d.set(rolloutv1alpha1.ConditionComplete, true, ReasonRolloutComplete, fmt.Sprintf(format, args...))
	d.finished()
}

// finished marks a complete rollout neither progressing nor paused.
func (d *decider) finished() {
	d.set(rolloutv1alpha1.ConditionProgressing, false, ReasonRolloutComplete, "")
	d.set(rolloutv1alpha1.ConditionPaused, false, "NotPaused", "")
}

// assignWave gives the wave's clusters the current revision, as many at a
// time as its maxUnavailableClusters allows.
func (d *decider) assignWave(w Wave) {
	inFlight := 0
	for _, name := range w.Clusters {
		if c := d.cluster(name); c.Revision == d.in.Target && c.Health != rolloutv1alpha1.ClusterHealthy && !d.gaveUp(c) {
			inFlight++
		}
	}
	for _, name := range w.Clusters {
		if inFlight >= w.MaxUnavailable {
			return
		}
		if c := d.cluster(name); c.Revision != d.in.Target {
			d.assign(c, d.in.Target)
			inFlight++
		}
	}
}

// waveWaits says what the wave still waits for; "" once it has passed.
func (d *decider) waveWaits(w Wave) string {
	var notYet, soaking []string
	for _, name := range w.Clusters {
		c := d.cluster(name)
		switch {
		case d.gaveUp(c):
		case c.Revision != d.in.Target:
			notYet = append(notYet, name+" (queued)")
		case c.Health != rolloutv1alpha1.ClusterHealthy:
			notYet = append(notYet, fmt.Sprintf("%s (%s)", name, c.Message))
			d.wait(d.deadline(c).Sub(d.in.Now))
		default:
			if left := w.HealthyFor - d.in.Now.Sub(c.LastTransitionTime.Time); left > 0 {
				soaking = append(soaking, name)
				d.wait(left)
			}
		}
	}
	switch {
	case len(notYet) > 0:
		return "waiting for " + strings.Join(notYet, ", ")
	case len(soaking) > 0:
		return fmt.Sprintf("healthy; %s must stay so for %s", list(soaking), w.HealthyFor)
	}
	return ""
}

// failed checks the wave's clusters against the timeout and acts on the
// first that failed; it reports whether the rollout stops here.
func (d *decider) failed(w Wave) bool {
	for _, name := range w.Clusters {
		c := d.cluster(name)
		if c.Revision != d.in.Target || c.Health == rolloutv1alpha1.ClusterHealthy || d.gaveUp(c) || !d.timedOut(c) {
			continue
		}
		if d.fail(c, d.in.OnFailure) {
			return true
		}
	}
	return false
}

// deadline is when an unhealthy cluster fails: the timeout after it
// turned unhealthy, or after a later resume, which gives another timeout.
func (d *decider) deadline(c *rolloutv1alpha1.ClusterRevision) time.Time {
	since := c.LastTransitionTime.Time
	if r := d.in.Spec.Release; r != nil && r.Time.After(since) {
		since = r.Time.Time
	}
	return since.Add(d.in.Timeout)
}

// timedOut tells whether a cluster has been unhealthy past its deadline.
func (d *decider) timedOut(c *rolloutv1alpha1.ClusterRevision) bool {
	return !d.in.Now.Before(d.deadline(c))
}

// fail records a cluster's failure and acts on it; it reports whether the
// rollout stops.
func (d *decider) fail(c *rolloutv1alpha1.ClusterRevision, action rolloutv1alpha1.FailureAction) bool {
	msg := fmt.Sprintf("cluster %s was not healthy at revision %d within %s: %s", c.Name, c.Revision, d.in.Timeout, c.Message)
	r := d.record(c.Revision, c.Name)
	r.FailedTime, r.Result, r.Message = d.now.DeepCopy(), rolloutv1alpha1.ResultFailed, c.Message
	if action == rolloutv1alpha1.FailureContinue {
		d.event(true, ReasonClusterFailed, "%s; continuing (onFailure: Continue)", upper(msg))
		return false
	}
	d.set(rolloutv1alpha1.ConditionFailed, true, ReasonWaveFailed, upper(msg))
	d.event(true, ReasonWaveFailed, "%s", upper(msg))
	d.outcomes = append(d.outcomes, OutcomeFailed)
	if d.st.WaveStartTime != nil {
		d.waves = append(d.waves, WaveResult{Wave: d.st.Wave, Result: "failed", Duration: d.in.Now.Sub(d.st.WaveStartTime.Time)})
	}
	if action == rolloutv1alpha1.FailureRollback {
		if d.rollbackTo = d.rollbackTarget(); d.rollbackTo != 0 {
			d.event(true, ReasonRollingBack, "Rolling back to revision %d (onFailure: Rollback)", d.rollbackTo)
		}
	}
	d.settle("", "")
	return true
}

// rollbackTarget is the revision a failure rolls back to: the stable one,
// unless that is the failing one.
func (d *decider) rollbackTarget() int64 {
	if d.st.StableRevision == d.st.CurrentRevision {
		return 0
	}
	return d.st.StableRevision
}

// gaveUp tells whether a cluster failed at the current revision and the
// policy continues without it.
func (d *decider) gaveUp(c *rolloutv1alpha1.ClusterRevision) bool {
	if d.in.OnFailure != rolloutv1alpha1.FailureContinue {
		return false
	}
	r := d.findRecord(c.Revision, c.Name)
	return c.Revision == d.in.Target && r != nil && r.Result == rolloutv1alpha1.ResultFailed
}

// resumedAfterFailure tells whether a release of the current revision was
// given after the failure.
func (d *decider) resumedAfterFailure() bool {
	f := meta.FindStatusCondition(d.st.Conditions, rolloutv1alpha1.ConditionFailed)
	r := d.in.Spec.Release
	return f != nil && r != nil && r.Revision == d.in.Target && r.Time.After(f.LastTransitionTime.Time)
}

// retry clears the failure: the failed wave is tried again.
func (d *decider) retry() {
	d.set(rolloutv1alpha1.ConditionFailed, false, ReasonResumed, "Resumed after the failure; the wave is tried again.")
	d.event(false, ReasonResumed, "Resumed after the failure of wave %s", d.st.Wave)
}

// released tells whether the user let the rollout start wave i though the
// wave before is marked pause.
func (d *decider) released(i int) bool {
	r := d.in.Spec.Release
	if r == nil || r.Revision != d.in.Target {
		return false
	}
	for j := i; j < len(d.in.Waves); j++ {
		if d.in.Waves[j].Name == r.ThroughWave {
			return true
		}
	}
	return false
}

// progress marks the rollout on its way, saying what it waits for.
func (d *decider) progress(msg string) {
	d.set(rolloutv1alpha1.ConditionProgressing, true, "WaveInProgress", msg)
	d.set(rolloutv1alpha1.ConditionPaused, false, "NotPaused", "")
}

// settle marks the rollout not progressing; a non-empty pause reason
// marks it paused for that reason.
func (d *decider) settle(pauseReason, msg string) {
	switch {
	case d.isTrue(rolloutv1alpha1.ConditionFailed):
		f := meta.FindStatusCondition(d.st.Conditions, rolloutv1alpha1.ConditionFailed)
		d.set(rolloutv1alpha1.ConditionProgressing, false, ReasonWaveFailed, f.Message)
		d.set(rolloutv1alpha1.ConditionPaused, true, ReasonWaveFailed, "Stopped by the failure: `kubectl mco rollout resume` tries the wave again, `kubectl mco rollout undo` goes back.")
	default:
		if !d.isTrue(rolloutv1alpha1.ConditionPaused) && pauseReason != ReasonHeld {
			d.event(false, pauseReason, "%s", msg)
		}
		d.set(rolloutv1alpha1.ConditionProgressing, false, pauseReason, msg)
		d.set(rolloutv1alpha1.ConditionPaused, true, pauseReason, msg)
	}
}

// set writes a condition, moving its transition time only on a change of
// status.
func (d *decider) set(condType string, status bool, reason, msg string) {
	s := metav1.ConditionFalse
	if status {
		s = metav1.ConditionTrue
	}
	meta.SetStatusCondition(&d.st.Conditions, metav1.Condition{Type: condType, Status: s, Reason: reason, Message: msg,
		LastTransitionTime: d.now})
}

func (d *decider) isTrue(condType string) bool {
	return meta.IsStatusConditionTrue(d.st.Conditions, condType)
}

// cluster is the entry of a cluster of the placement (syncClusters made
// one for each cluster of a wave).
func (d *decider) cluster(name string) *rolloutv1alpha1.ClusterRevision {
	for i := range d.st.Clusters {
		if d.st.Clusters[i].Name == name {
			return &d.st.Clusters[i]
		}
	}
	return &rolloutv1alpha1.ClusterRevision{Name: name}
}

func list(names []string) string {
	if len(names) == 0 {
		return "no cluster"
	}
	return strings.Join(names, ", ")
}

func upper(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}
