package addon

import (
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/sets"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

func TestPeers(t *testing.T) {
	synced := metav1.Now()
	created := metav1.NewTime(time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC))
	status := func(phase addonsv1alpha1.AddonPhase, synced *metav1.Time) addonsv1alpha1.AddonStatus {
		return addonsv1alpha1.AddonStatus{Clusters: []addonsv1alpha1.AddonClusterStatus{
			{Name: "member1", Phase: phase, LastSyncTime: synced}, {Name: "member2", Phase: addonsv1alpha1.PhaseHealthy}}}
	}
	addons := []*addonsv1alpha1.Addon{
		{ObjectMeta: metav1.ObjectMeta{Name: "a", CreationTimestamp: created}, Status: status(addonsv1alpha1.PhaseHealthy, &synced),
			Spec: addonsv1alpha1.AddonSpec{DependsOn: []addonsv1alpha1.AddonReference{{Name: "base"}}, ConflictsWith: []addonsv1alpha1.AddonReference{{Name: "c"}}}},
		{ObjectMeta: metav1.ObjectMeta{Name: "failed-early"}, Status: status(addonsv1alpha1.PhaseFailed, nil)},
		{ObjectMeta: metav1.ObjectMeta{Name: "failed-applying"}, Status: status(addonsv1alpha1.PhaseFailed, &synced)},
		{ObjectMeta: metav1.ObjectMeta{Name: "waiting"}, Status: status(addonsv1alpha1.PhaseWaitingForDependency, nil)},
		{ObjectMeta: metav1.ObjectMeta{Name: "elsewhere"}},
	}
	placed := map[string]sets.Set[string]{"a": sets.New("member1"), "failed-early": sets.New("member1"),
		"failed-applying": sets.New("member1"), "waiting": sets.New("member1"), "elsewhere": sets.New("member2")}
	got := Peers(addons, placed, "member1")
	tests := []struct {
		name              string
		placed, installed bool
		phase             addonsv1alpha1.AddonPhase
	}{
		{"a", true, true, addonsv1alpha1.PhaseHealthy},
		{"failed-early", true, false, addonsv1alpha1.PhaseFailed},
		{"failed-applying", true, true, addonsv1alpha1.PhaseFailed},
		{"waiting", true, false, addonsv1alpha1.PhaseWaitingForDependency},
		{"elsewhere", false, false, ""},
	}
	for _, tt := range tests {
		p := got[tt.name]
		if p.Placed != tt.placed || p.Installed != tt.installed || p.Phase != tt.phase {
			t.Errorf("%s: placed %v installed %v phase %q, want %v %v %q", tt.name, p.Placed, p.Installed, p.Phase, tt.placed, tt.installed, tt.phase)
		}
	}
	if a := got["a"]; !a.Created.Equal(created.Time) || a.DependsOn[0] != "base" || a.ConflictsWith[0] != "c" {
		t.Errorf("a: %+v", a)
	}
}
