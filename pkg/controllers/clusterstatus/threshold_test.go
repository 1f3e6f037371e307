package clusterstatus

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestThresholdAdjust(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	th := Thresholds{Failure: 30 * time.Second, Success: 20 * time.Second}
	cond := func(s metav1.ConditionStatus, reason string) metav1.Condition {
		return metav1.Condition{Type: "Ready", Status: s, Reason: reason}
	}
	ready, unreachable := cond(metav1.ConditionTrue, ReasonClusterReady), cond(metav1.ConditionFalse, ReasonClusterNotReachable)
	unknown := cond(metav1.ConditionUnknown, "ClusterStatusUnknown")
	for _, tc := range []struct {
		name       string
		published  *metav1.Condition
		observed   metav1.Condition
		pending    *pending
		now        time.Time
		want       metav1.Condition
		wantSince  time.Time // zero: no pending change
		wantWaitIn time.Duration
	}{
		{name: "first observation is published at once", published: nil, observed: unreachable, now: t0, want: unreachable},
		{name: "same status: the new reason and message are published", published: &ready, observed: ready, now: t0, want: ready},
		{name: "a failure starts waiting", published: &ready, observed: unreachable, now: t0, want: ready, wantSince: t0, wantWaitIn: 30 * time.Second},
		{name: "a failure still waiting", published: &ready, observed: unreachable, pending: &pending{metav1.ConditionFalse, t0}, now: t0.Add(29 * time.Second), want: ready, wantSince: t0, wantWaitIn: time.Second},
		{name: "a failure that held is published", published: &ready, observed: unreachable, pending: &pending{metav1.ConditionFalse, t0}, now: t0.Add(30 * time.Second), want: unreachable},
		{name: "a blip that recovered forgets the pending failure", published: &ready, observed: ready, pending: &pending{metav1.ConditionFalse, t0}, now: t0.Add(10 * time.Second), want: ready},
		{name: "a recovery waits the success threshold", published: &unreachable, observed: ready, now: t0, want: unreachable, wantSince: t0, wantWaitIn: 20 * time.Second},
		{name: "a recovery that held is published", published: &unreachable, observed: ready, pending: &pending{metav1.ConditionTrue, t0}, now: t0.Add(20 * time.Second), want: ready},
		{name: "unknown to ready waits the success threshold", published: &unknown, observed: ready, now: t0, want: unknown, wantSince: t0, wantWaitIn: 20 * time.Second},
		{name: "a pending change of another status restarts", published: &unknown, observed: unreachable, pending: &pending{metav1.ConditionTrue, t0}, now: t0.Add(25 * time.Second), want: unknown, wantSince: t0.Add(25 * time.Second), wantWaitIn: 30 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, p, wait := th.adjust(tc.published, tc.observed, tc.pending, tc.now)
			if got.Status != tc.want.Status || got.Reason != tc.want.Reason {
				t.Errorf("published %s/%s, want %s/%s", got.Status, got.Reason, tc.want.Status, tc.want.Reason)
			}
			switch {
			case tc.wantSince.IsZero() && p != nil:
				t.Errorf("pending %+v, want none", p)
			case !tc.wantSince.IsZero() && (p == nil || !p.since.Equal(tc.wantSince)):
				t.Errorf("pending %+v, want since %s", p, tc.wantSince)
			}
			if wait != tc.wantWaitIn {
				t.Errorf("wait %s, want %s", wait, tc.wantWaitIn)
			}
		})
	}
}
