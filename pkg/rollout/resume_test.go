package rollout

import (
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

// The resumes of a rollout: early, before the pause they release, and
// after a failure.

// resume applies Resume, as kubectl mco rollout resume does, to the
// world's rollout.
func (w *world) resume() string {
	w.t.Helper()
	ro := &rolloutv1alpha1.Rollout{Spec: w.spec, Status: w.status}
	var waves []PolicyWave
	for _, wave := range w.waves {
		waves = append(waves, PolicyWave{Name: wave.Name, Pause: wave.Pause})
	}
	says, err := Resume(ro, waves, "", w.now)
	if err != nil {
		w.t.Fatal(err)
	}
	w.spec = ro.Spec
	return says
}

func TestAnEarlyResumeReleasesThePauseWhenTheWavePasses(t *testing.T) {
	w := newWorld(t)
	w.waves[0].Pause = true
	w.settle(1)
	w.settle(2)
	w.wait(10 * time.Second) // canary soaks
	if says := w.resume(); !strings.Contains(says, "canary is still under way; the rollout will go on past it without pausing") {
		t.Fatalf("resume says %q", says)
	}
	w.settle(2)
	if c := meta.FindStatusCondition(w.status.Conditions, rolloutv1alpha1.ConditionProgressing); c == nil ||
		!strings.Contains(c.Message, "will continue past canary without pausing") {
		t.Fatalf("progressing condition %+v, want it to say the rollout will continue past canary", c)
	}
	w.wait(time.Minute)
	w.settle(2)
	w.expectGiven(map[string]int64{"member2": 2, "member1": 2, "member3": 1})
	w.expectState(rolloutv1alpha1.ConditionProgressing)
	w.wait(61 * time.Second)
	w.settle(2)
	w.expectGiven(everyMember(2))
	w.expectState(rolloutv1alpha1.ConditionComplete)
}

func TestAnEarlyResumeBelongsToItsRevision(t *testing.T) {
	w := newWorld(t)
	w.waves[0].Pause = true
	w.settle(1)
	w.settle(2)
	w.wait(10 * time.Second)
	w.resume()
	w.settle(2)
	// Revision 3 arrives while canary still soaks revision 2: it rolls
	// out on its own and stops after canary.
	w.settle(3)
	w.wait(2 * time.Minute)
	w.settle(3)
	w.expectGiven(map[string]int64{"member2": 3, "member1": 1, "member3": 1})
	w.expectState(rolloutv1alpha1.ConditionPaused)
}

// TestAResumedFailedWaveWaitsForItsNewDeadline: a resume after a failure
// gives the still unhealthy cluster another timeout, and the rollout asks
// to decide again when that one ends, not every second until then.
func TestAResumedFailedWaveWaitsForItsNewDeadline(t *testing.T) {
	w := newWorld(t)
	w.failCanary()
	w.wait(time.Minute)
	w.spec.Release = &rolloutv1alpha1.WaveRelease{Revision: 2, ThroughWave: "canary", Time: metav1.NewTime(w.now)}
	w.decide(2)
	w.expectEvent(ReasonResumed)
	if w.last.After < 4*time.Minute || w.last.After > 5*time.Minute {
		t.Fatalf("after the resume, decide again in %s; want the new deadline, 5m after the resume", w.last.After)
	}
	w.wait(5 * time.Minute)
	w.settle(2)
	w.expectState(rolloutv1alpha1.ConditionFailed)
}
