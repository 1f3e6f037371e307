package addon

import (
	"errors"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// work is a Work of n manifests, generation 2, applied as given (nil: not
// yet), each manifest of the given health ("" for none observed).
func work(applied *metav1.Condition, health ...workv1alpha1.ResourceHealth) *workv1alpha1.Work {
	w := &workv1alpha1.Work{ObjectMeta: metav1.ObjectMeta{Generation: 2}}
	for i, h := range health {
		w.Spec.Workload.Manifests = append(w.Spec.Workload.Manifests, workv1alpha1.Manifest{})
		if h != "" {
			w.Status.ManifestStatuses = append(w.Status.ManifestStatuses, workv1alpha1.ManifestStatus{Health: h,
				Identifier: workv1alpha1.ResourceIdentifier{Ordinal: i, Kind: "Deployment", Namespace: "logging", Name: "lc"}})
		}
	}
	if applied != nil {
		w.Status.Conditions = []metav1.Condition{*applied}
	}
	return w
}

func applied(status metav1.ConditionStatus, gen int64, msg string) *metav1.Condition {
	return &metav1.Condition{Type: workv1alpha1.WorkApplied, Status: status, ObservedGeneration: gen, Message: msg}
}

func TestJudge(t *testing.T) {
	ok := applied(metav1.ConditionTrue, 2, "")
	healthy, unhealthy := workv1alpha1.ResourceHealthy, workv1alpha1.ResourceUnhealthy
	tests := []struct {
		name      string
		o         Observed
		wantPhase addonsv1alpha1.AddonPhase
		wantMsg   string
	}{
		{name: "leaving", o: Observed{Removing: true, Err: errors.New("x")}, wantPhase: addonsv1alpha1.PhaseRemoving},
		{name: "a render error, verbatim", o: Observed{Err: errors.New(`template: lc/templates/a.yaml:3: nil pointer`)},
			wantPhase: addonsv1alpha1.PhaseFailed, wantMsg: "template: lc/templates/a.yaml:3: nil pointer"},
		{name: "waiting for a dependency", o: Observed{Verdict: Verdict{addonsv1alpha1.PhaseWaitingForDependency, "waiting for add-on a"}},
			wantPhase: addonsv1alpha1.PhaseWaitingForDependency, wantMsg: "waiting for add-on a"},
		{name: "a Work not written yet", o: Observed{Want: 2, Works: []*workv1alpha1.Work{work(ok, healthy)}},
			wantPhase: addonsv1alpha1.PhaseInstalling, wantMsg: "1 of 2 Works written"},
		{name: "applied to an older generation", o: Observed{Want: 1, Works: []*workv1alpha1.Work{work(applied(metav1.ConditionTrue, 1, ""), healthy)}},
			wantPhase: addonsv1alpha1.PhaseInstalling, wantMsg: "applying"},
		{name: "a custom resource waiting for its definition is installing, not failed",
			o:         Observed{Want: 1, Works: []*workv1alpha1.Work{work(applied(metav1.ConditionFalse, 2, `no matches for kind "LogSink" in version "logging.example.com/v1"`), "")}},
			wantPhase: addonsv1alpha1.PhaseInstalling, wantMsg: "waiting for a CustomResourceDefinition"},
		{name: "an apply error fails", o: Observed{Want: 1, Works: []*workv1alpha1.Work{work(applied(metav1.ConditionFalse, 2, "conflict: Deployment logging/lc exists and is not mco's"), "")}},
			wantPhase: addonsv1alpha1.PhaseFailed, wantMsg: "is not mco's"},
		{name: "every object healthy", o: Observed{Want: 2, Works: []*workv1alpha1.Work{work(ok, healthy), work(ok, healthy, healthy)}},
			wantPhase: addonsv1alpha1.PhaseHealthy},
		{name: "an object whose health could not be observed is not healthy yet",
			o:         Observed{Want: 1, Works: []*workv1alpha1.Work{work(ok, healthy, workv1alpha1.ResourceUnknown)}},
			wantPhase: addonsv1alpha1.PhaseInstalling, wantMsg: "not healthy yet"},
		{name: "health not observed yet", o: Observed{Want: 1, Works: []*workv1alpha1.Work{work(ok, healthy, "")}},
			wantPhase: addonsv1alpha1.PhaseInstalling, wantMsg: "health not observed yet"},
		{name: "an object not healthy yet on the way in", o: Observed{Want: 1, Works: []*workv1alpha1.Work{work(ok, healthy, unhealthy)}},
			wantPhase: addonsv1alpha1.PhaseInstalling, wantMsg: "not healthy yet: Deployment logging/lc"},
		{name: "an object no longer healthy after being so", o: Observed{Previous: addonsv1alpha1.PhaseHealthy, Want: 1, Works: []*workv1alpha1.Work{work(ok, unhealthy)}},
			wantPhase: addonsv1alpha1.PhaseDegraded, wantMsg: "no longer healthy: Deployment logging/lc"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			phase, msg := Judge(tt.o)
			if phase != tt.wantPhase || !strings.Contains(msg, tt.wantMsg) {
				t.Errorf("Judge = %s %q, want %s %q", phase, msg, tt.wantPhase, tt.wantMsg)
			}
		})
	}
}
