package rollout

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

var t0 = time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)

// world is a rollout under test: three single-cluster waves
// member2 → member1 → member3, and what each cluster reports.
type world struct {
	t       *testing.T
	now     time.Time
	spec    rolloutv1alpha1.RolloutSpec
	status  rolloutv1alpha1.RolloutStatus
	waves   []Wave
	onFail  rolloutv1alpha1.FailureAction
	held    bool
	running map[string]int64 // revision each member runs, healthy
	sick    map[string]bool  // members whose current revision never turns healthy
	last    Decision
	events  []Event // of every decision so far
}

func newWorld(t *testing.T, waves ...Wave) *world {
	if len(waves) == 0 {
		waves = []Wave{
			{Name: "canary", Clusters: []string{"member2"}, MaxUnavailable: 1, HealthyFor: time.Minute},
			{Name: "pre", Clusters: []string{"member1"}, MaxUnavailable: 1, HealthyFor: time.Minute},
			{Name: "prod", Clusters: []string{"member3"}, MaxUnavailable: 1},
		}
	}
	return &world{t: t, now: t0, waves: waves, onFail: rolloutv1alpha1.FailurePause,
		running: map[string]int64{}, sick: map[string]bool{}}
}

// decide runs one decision at target and applies what it gives: every
// cluster runs its given revision at once, healthy unless sick.
func (w *world) decide(target int64) Decision {
	w.t.Helper()
	observed := map[string]Observation{}
	for name, rev := range w.running {
		h := rolloutv1alpha1.ClusterHealthy
		if w.sick[name] {
			h = rolloutv1alpha1.ClusterUnhealthy
		}
		observed[name] = Observation{Revision: rev, Health: h, Message: "replicas not available"}
	}
	d := Decide(Input{Now: w.now, Spec: w.spec, Status: w.status, Waves: w.waves, Target: target,
		Timeout: 5 * time.Minute, OnFailure: w.onFail, Held: w.held, Observed: observed, HistoryLimit: 10})
	w.status, w.last = d.Status, d
	w.events = append(w.events, d.Events...)
	for _, c := range d.Status.Clusters {
		w.running[c.Name] = c.Revision
	}
	return d
}

// settle decides until nothing changes more (the apply and the health
// report of a cluster come as later events).
func (w *world) settle(target int64) {
	for range 5 {
		w.decide(target)
	}
}

func (w *world) given() map[string]int64 {
	out := map[string]int64{}
	for _, c := range w.status.Clusters {
		out[c.Name] = c.Revision
	}
	return out
}

func (w *world) expectGiven(want map[string]int64) {
	w.t.Helper()
	got := w.given()
	for name, rev := range want {
		if got[name] != rev {
			w.t.Fatalf("at +%s: clusters have %v, want %v", w.now.Sub(t0), got, want)
		}
	}
}

func (w *world) expectState(want string) {
	w.t.Helper()
	if got := w.status.State(); got != want {
		w.t.Fatalf("at +%s: state %q, want %q; conditions %+v", w.now.Sub(t0), got, want, w.status.Conditions)
	}
}

func (w *world) expectEvent(reason string) {
	w.t.Helper()
	for _, e := range w.events {
		if e.Reason == reason {
			return
		}
	}
	w.t.Fatalf("no %s event in %+v", reason, w.events)
}

func (w *world) wait(d time.Duration) { w.now = w.now.Add(d) }

func everyMember(rev int64) map[string]int64 {
	return map[string]int64{"member1": rev, "member2": rev, "member3": rev}
}

func TestFirstRevisionGoesEverywhereAtOnce(t *testing.T) {
	w := newWorld(t)
	w.settle(1)
	w.expectGiven(everyMember(1))
	w.expectState(rolloutv1alpha1.ConditionComplete)
	if w.status.StableRevision != 1 || w.status.CurrentRevision != 1 {
		t.Fatalf("stable %d current %d, want 1 and 1", w.status.StableRevision, w.status.CurrentRevision)
	}
}

func TestNewRevisionGoesWaveByWaveAfterHealthyFor(t *testing.T) {
	w := newWorld(t)
	w.settle(1)
	w.settle(2)
	w.expectEvent(ReasonRolloutStarted)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 1, "member3": 1})
	w.expectState(rolloutv1alpha1.ConditionProgressing)
	if w.last.After <= 0 || w.last.After > time.Minute {
		t.Fatalf("asks to decide again after %s, want within healthyFor (1m)", w.last.After)
	}
	w.wait(59 * time.Second)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 1, "member3": 1})
	w.wait(2 * time.Second)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 2, "member3": 1})
	w.wait(61 * time.Second)
	w.settle(2)
	w.expectGiven(everyMember(2))
	w.expectState(rolloutv1alpha1.ConditionComplete)
	if w.status.StableRevision != 2 {
		t.Fatalf("stable revision %d, want 2", w.status.StableRevision)
	}
}

func TestPausedWaveHoldsTheRestUntilReleased(t *testing.T) {
	w := newWorld(t)
	w.waves[0].Pause = true
	w.settle(1)
	w.settle(2)
	w.wait(2 * time.Minute)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 1, "member3": 1})
	w.expectState(rolloutv1alpha1.ConditionPaused)
	if c := meta.FindStatusCondition(w.status.Conditions, rolloutv1alpha1.ConditionPaused); c.Reason != ReasonWavePaused ||
		!strings.Contains(c.Message, "starts wave pre") {
		t.Fatalf("paused condition %+v, want reason WavePaused naming the next wave", c)
	}
	w.spec.Release = &rolloutv1alpha1.WaveRelease{Revision: 2, ThroughWave: "pre", Time: metav1.NewTime(w.now)}
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 2, "member3": 1})
	w.expectState(rolloutv1alpha1.ConditionProgressing)
}

func TestUnhealthyWaveFailsAfterTheTimeoutAndPauses(t *testing.T) {
	w := newWorld(t)
	w.settle(1)
	w.sick["member2"] = true
	w.settle(2)
	w.wait(4 * time.Minute)
	w.settle(2)
	w.expectState(rolloutv1alpha1.ConditionProgressing)
	w.wait(time.Minute)
	w.settle(2)
	w.expectState(rolloutv1alpha1.ConditionFailed)
	if !meta.IsStatusConditionTrue(w.status.Conditions, rolloutv1alpha1.ConditionPaused) {
		t.Fatalf("a failure with onFailure Pause must pause: %+v", w.status.Conditions)
	}
	c := meta.FindStatusCondition(w.status.Conditions, rolloutv1alpha1.ConditionFailed)
	if !strings.Contains(c.Message, "member2") || !strings.Contains(c.Message, "replicas not available") {
		t.Fatalf("failure message %q names neither the cluster nor what is unhealthy", c.Message)
	}
	w.wait(time.Hour)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 1, "member3": 1})
	if w.last.RollbackTo != 0 {
		t.Fatalf("onFailure Pause asked for a rollback to %d", w.last.RollbackTo)
	}
	if r := w.status.History[0].Clusters; len(r) == 0 || r[0].Result != rolloutv1alpha1.ResultFailed {
		t.Fatalf("history of revision 2: %+v, want member2 Failed", w.status.History[0])
	}
}

// failCanary rolls revision 2 out to a member2 that never turns healthy,
// until the canary wave has failed.
func (w *world) failCanary() {
	w.t.Helper()
	w.settle(1)
	w.sick["member2"] = true
	w.settle(2)
	w.wait(6 * time.Minute)
	w.settle(2)
	w.expectState(rolloutv1alpha1.ConditionFailed)
}

func TestResumeAfterAFailureTriesTheWaveAgain(t *testing.T) {
	w := newWorld(t)
	w.failCanary()
	w.sick["member2"] = false
	w.wait(time.Second)
	w.spec.Release = &rolloutv1alpha1.WaveRelease{Revision: 2, ThroughWave: "canary", Time: metav1.NewTime(w.now)}
	w.settle(2)
	w.expectEvent(ReasonResumed)
	w.expectState(rolloutv1alpha1.ConditionProgressing)
	w.wait(2 * time.Minute)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 2, "member3": 1})
}

func TestOnFailureRollbackAsksForTheStableRevision(t *testing.T) {
	w := newWorld(t)
	w.onFail = rolloutv1alpha1.FailureRollback
	w.settle(1)
	w.sick["member2"] = true
	w.settle(2)
	w.wait(6 * time.Minute)
	w.decide(2)
	if w.last.RollbackTo != 1 {
		t.Fatalf("RollbackTo %d, want 1", w.last.RollbackTo)
	}
	w.expectEvent(ReasonRollingBack)
	// The controller writes revision 1 back, marked as a rollback.
	w.spec.Rollback = &rolloutv1alpha1.RollbackRequest{ToRevision: 1, FromRevision: 2}
	w.sick["member2"] = false
	w.decide(1)
	w.expectGiven(everyMember(1))
	w.settle(1)
	w.expectState(rolloutv1alpha1.ConditionComplete)
}

func TestUndoGoesAtOnceToEveryClusterThatRanTheBadRevision(t *testing.T) {
	w := newWorld(t)
	w.settle(1)
	w.settle(2)
	w.wait(2 * time.Minute)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 2, "member3": 1})
	w.spec.Rollback = &rolloutv1alpha1.RollbackRequest{ToRevision: 1, FromRevision: 2}
	w.decide(1)
	w.expectGiven(everyMember(1))
	w.expectEvent(ReasonRollingBack)
	w.settle(1)
	w.expectState(rolloutv1alpha1.ConditionComplete)
}

func TestAStaleRollbackRequestDoesNotSkipTheWaves(t *testing.T) {
	w := newWorld(t)
	w.settle(1)
	w.spec.Rollback = &rolloutv1alpha1.RollbackRequest{ToRevision: 3, FromRevision: 7}
	w.settle(3)
	w.expectGiven(map[string]int64{"member2": 3, "member1": 1, "member3": 1})
}

func TestASecondChangeSupersedesTheFirst(t *testing.T) {
	w := newWorld(t)
	w.settle(1)
	w.settle(2)
	w.wait(2 * time.Minute)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 2, "member3": 1})
	w.settle(3)
	w.expectGiven(map[string]int64{"member2": 3, "member1": 2, "member3": 1})
	if w.status.StableRevision != 1 {
		t.Fatalf("stable revision %d, want 1 (2 never completed)", w.status.StableRevision)
	}
	w.wait(2 * time.Minute)
	w.settle(3)
	w.expectGiven(map[string]int64{"member2": 3, "member1": 3, "member3": 1})
	w.wait(2 * time.Minute)
	w.settle(3)
	w.expectGiven(everyMember(3))
	w.expectState(rolloutv1alpha1.ConditionComplete)
}

func TestOnFailureContinueGoesOnWithTheNextWave(t *testing.T) {
	w := newWorld(t)
	w.onFail = rolloutv1alpha1.FailureContinue
	w.settle(1)
	w.sick["member2"] = true
	w.settle(2)
	w.wait(6 * time.Minute)
	w.settle(2)
	w.expectEvent(ReasonClusterFailed)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 2, "member3": 1})
}

func TestMaxUnavailableClustersUpdatesAWaveInTurns(t *testing.T) {
	w := newWorld(t, Wave{Name: "all", Clusters: []string{"member1", "member2"}, MaxUnavailable: 1})
	w.settle(1)
	w.sick["member1"] = true
	w.settle(2)
	w.expectGiven(map[string]int64{"member1": 2, "member2": 1})
	w.sick["member1"] = false
	w.settle(2)
	w.expectGiven(map[string]int64{"member1": 2, "member2": 2})
}

func TestUserPauseAndSuspendedDispatchingHoldTheWaves(t *testing.T) {
	for _, tc := range []struct {
		name   string
		set    func(w *world)
		reason string
	}{
		{"paused by the user", func(w *world) { w.spec.Paused = true }, ReasonPaused},
		{"dispatching suspended", func(w *world) { w.held = true }, ReasonHeld},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			w.settle(1)
			tc.set(w)
			w.settle(2)
			w.expectGiven(everyMember(1))
			w.expectState(rolloutv1alpha1.ConditionPaused)
			if c := meta.FindStatusCondition(w.status.Conditions, rolloutv1alpha1.ConditionPaused); c.Reason != tc.reason {
				t.Fatalf("paused for %s, want %s", c.Reason, tc.reason)
			}
		})
	}
}

func TestClustersJoiningMidRolloutGetTheRevisionTheirWaveReached(t *testing.T) {
	w := newWorld(t,
		Wave{Name: "canary", Clusters: []string{"member2"}, MaxUnavailable: 1},
		Wave{Name: "prod", Clusters: []string{"member3"}, MaxUnavailable: 1, HealthyFor: time.Hour})
	w.settle(1)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member3": 2})
	w.waves[0].Clusters = append(w.waves[0].Clusters, "member4")
	w.waves[1].Clusters = append(w.waves[1].Clusters, "member5")
	w.decide(2)
	w.expectGiven(map[string]int64{"member4": 2, "member5": 2})
	w.settle(2)
	// A later revision stuck in the first wave: a newcomer in a wave not
	// yet reached gets the stable revision.
	w.wait(2 * time.Hour)
	w.settle(2)
	w.sick["member2"], w.sick["member4"] = true, true
	w.settle(3)
	w.waves[1].Clusters = append(w.waves[1].Clusters, "member6")
	w.decide(3)
	w.expectGiven(map[string]int64{"member2": 3, "member6": 2, "member3": 2})
}

func TestHistoryRecordsEachClusterAndIsBounded(t *testing.T) {
	w := newWorld(t)
	w.settle(1)
	for rev := int64(2); rev <= 15; rev++ {
		w.settle(rev)
		w.wait(2 * time.Minute)
		w.settle(rev)
		w.wait(2 * time.Minute)
		w.settle(rev)
	}
	w.expectGiven(everyMember(15))
	if n := len(w.status.History); n != 11 {
		t.Fatalf("history keeps %d revisions, want 11 (current and 10 earlier)", n)
	}
	h := w.status.History[0]
	if h.Revision != 15 || len(h.Clusters) != 3 {
		t.Fatalf("newest history entry %+v, want revision 15 on 3 clusters", h)
	}
	for _, c := range h.Clusters {
		if c.AppliedTime == nil || c.HealthyTime == nil || c.Result != rolloutv1alpha1.ResultHealthy {
			t.Fatalf("record %+v lacks its times or result", c)
		}
	}
}
