package rollout

import (
	"bytes"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
)

func TestPrevious(t *testing.T) {
	history := []rolloutv1alpha1.RevisionHistory{{Revision: 5}, {Revision: 3}, {Revision: 4}}
	tests := []struct {
		name                    string
		current, stable, wanted int64
	}{
		{"a rollout on its way returns to the stable revision", 5, 3, 3},
		{"a complete rollout returns to the revision before it", 5, 5, 3},
	}
	for _, tc := range tests {
		st := &rolloutv1alpha1.RolloutStatus{CurrentRevision: tc.current, StableRevision: tc.stable, History: history}
		if got := previous(st); got != tc.wanted {
			t.Errorf("%s: %d, want %d", tc.name, got, tc.wanted)
		}
	}
	if got := previous(&rolloutv1alpha1.RolloutStatus{CurrentRevision: 1, StableRevision: 1,
		History: []rolloutv1alpha1.RevisionHistory{{Revision: 1}}}); got != 0 {
		t.Errorf("a single revision: %d, want none", got)
	}
}

func TestPrintStatus(t *testing.T) {
	now := time.Date(2026, 12, 3, 12, 0, 0, 0, time.UTC)
	since := metav1.NewTime(now.Add(-90 * time.Second))
	ro := &rolloutv1alpha1.Rollout{Status: rolloutv1alpha1.RolloutStatus{
		Policy:          rolloutv1alpha1.PolicyReference{Kind: "RolloutPolicy", Namespace: "shop", Name: "web"},
		CurrentRevision: 3, StableRevision: 2,
		Clusters: []rolloutv1alpha1.ClusterRevision{
			{Name: "member2", Wave: "canary", Revision: 3, Health: rolloutv1alpha1.ClusterUnhealthy, Message: "0 of 1 replicas updated", LastTransitionTime: &since},
			{Name: "member1", Wave: "pre", Revision: 2, Health: rolloutv1alpha1.ClusterHealthy, LastTransitionTime: &since},
		},
		Conditions: []metav1.Condition{{Type: "Progressing", Status: metav1.ConditionTrue, Message: "Wave canary (1 of 2): waiting for member2"}},
	}}
	var out bytes.Buffer
	printStatus(&out, "Deployment shop/web", ro, now)
	for _, want := range []string{
		"Rollout of Deployment shop/web (RolloutPolicy shop/web): revision 3, stable 2",
		"State: Progressing - Wave canary (1 of 2): waiting for member2",
		"canary  member2  3         Unhealthy  90s    0 of 1 replicas updated",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("status lacks %q:\n%s", want, out.String())
		}
	}
}
