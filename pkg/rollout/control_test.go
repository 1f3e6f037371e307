package rollout

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

func TestResume(t *testing.T) {
	waves := []PolicyWave{{Name: "canary", Pause: true}, {Name: "pre"}, {Name: "prod", Pause: true}, {Name: "last"}}
	started := metav1.Now()
	failed := []metav1.Condition{{Type: rolloutv1alpha1.ConditionFailed, Status: metav1.ConditionTrue}}
	tests := []struct {
		name        string
		waveIndex   int32
		waveStarted bool
		conditions  []metav1.Condition
		toWave      string
		wantThrough string
		wantSays    string
		wantErr     string
	}{
		{name: "paused after canary starts the next wave", waveIndex: 1,
			wantThrough: "pre", wantSays: "resumed through wave canary: wave pre starts"},
		{name: "an early resume, canary still under way, releases the pause after it", waveStarted: true,
			wantThrough: "pre", wantSays: "canary is still under way; the rollout will go on past it without pausing"},
		{name: "a resume during a wave without pause releases the next pause ahead", waveIndex: 1, waveStarted: true,
			wantThrough: "last", wantSays: "prod is still under way; the rollout will go on past it without pausing"},
		{name: "a resume during the last wave has no pause to release", waveIndex: 3, waveStarted: true,
			wantThrough: "last", wantSays: "no pause lies ahead"},
		{name: "failed in canary tries it again", waveStarted: true, conditions: failed,
			wantThrough: "canary", wantSays: "wave canary is tried again"},
		{name: "before any wave started the first starts", wantThrough: "canary", wantSays: "wave canary starts"},
		{name: "every wave passed releases the last", waveIndex: 4, wantThrough: "last", wantSays: "every wave has passed"},
		{name: "--to-wave releases up to that wave", waveIndex: 1, toWave: "prod", wantThrough: "prod", wantSays: "up to prod"},
		{name: "--to-wave of an unknown wave is refused", waveIndex: 1, toWave: "qa", wantErr: `no wave "qa"`},
		{name: "--to-wave of a wave already started is refused", waveIndex: 2, toWave: "pre", wantErr: "has started already"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			ro := &rolloutv1alpha1.Rollout{Spec: rolloutv1alpha1.RolloutSpec{Paused: true},
				Status: rolloutv1alpha1.RolloutStatus{CurrentRevision: 4, WaveIndex: tc.waveIndex, Conditions: tc.conditions}}
			if tc.waveStarted {
				ro.Status.WaveStartTime = &started
			}
			resumed := time.Date(2026, 12, 5, 10, 0, 0, 0, time.UTC)
			says, err := Resume(ro, waves, tc.toWave, resumed)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("err %v, want %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r := ro.Spec.Release; ro.Spec.Paused || r == nil || r.Revision != 4 || r.ThroughWave != tc.wantThrough || !r.Time.Time.Equal(resumed) {
				t.Fatalf("spec %+v, want unpaused and released through %s at revision 4 at %s", ro.Spec, tc.wantThrough, resumed)
			}
			if !strings.Contains(says, tc.wantSays) {
				t.Errorf("says %q, want %q", says, tc.wantSays)
			}
		})
	}
}
