package addon

import (
	"strconv"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/addon"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	workv1alpha1 "github.com/mco-org/mco/pkg/apis/work/v1alpha1"
)

// healthyWork is an applied Work of one healthy object, rendered as
// rendered says.
func healthyWork(rendered string, appliedAt time.Time) *workv1alpha1.Work {
	return &workv1alpha1.Work{
		ObjectMeta: metav1.ObjectMeta{Generation: 1, Annotations: map[string]string{addon.RenderedAnnotation: rendered}},
		Spec:       workv1alpha1.WorkSpec{Workload: workv1alpha1.WorkloadTemplate{Manifests: []workv1alpha1.Manifest{{}}}},
		Status: workv1alpha1.WorkStatus{
			Conditions: []metav1.Condition{{Type: workv1alpha1.WorkApplied, Status: metav1.ConditionTrue, ObservedGeneration: 1,
				LastTransitionTime: metav1.NewTime(appliedAt)}},
			ManifestStatuses: []workv1alpha1.ManifestStatus{{Health: workv1alpha1.ResourceHealthy}},
		},
	}
}

func TestStatus(t *testing.T) {
	at := time.Date(2026, 12, 5, 8, 0, 0, 0, time.UTC)
	current := addon.Outcome{Want: 1, ChartVersion: "2.1.0", Revision: 3, ValuesHash: "sha256:v", Rendered: "3/2.1.0/sha256:v"}
	ran := addonsv1alpha1.AddonClusterStatus{Name: "member1", Phase: addonsv1alpha1.PhaseHealthy, ChartVersion: "2.0.0", Revision: 2}
	tests := []struct {
		name       string
		placed     []string
		prev       []addonsv1alpha1.AddonClusterStatus
		outcomes   map[string]addon.Outcome
		works      map[string][]*workv1alpha1.Work
		want       string // cluster phase chart revision, "; "-joined
		wantMsg    string // in the first cluster's message
		wantReason string // of Ready
	}{
		{name: "healthy with the current revision", placed: []string{"member1"}, outcomes: map[string]addon.Outcome{"member1": current},
			works: map[string][]*workv1alpha1.Work{"member1": {healthyWork(current.Rendered, at)}},
			want:  "member1 Healthy 2.1.0 3", wantReason: addon.ReasonAllHealthy},
		{name: "Works of an earlier revision are not judged as the current one", placed: []string{"member1"}, outcomes: map[string]addon.Outcome{"member1": current},
			works: map[string][]*workv1alpha1.Work{"member1": {healthyWork("2/2.0.0/sha256:old", at)}},
			want:  "member1 Installing 2.1.0 3", wantMsg: "writing revision 3", wantReason: addon.ReasonNotHealthy},
		{name: "not rendered yet keeps what the status said", placed: []string{"member1", "member2"}, prev: []addonsv1alpha1.AddonClusterStatus{ran},
			outcomes: map[string]addon.Outcome{}, want: "member1 Healthy 2.0.0 2; member2  - 0", wantReason: addon.ReasonNotHealthy},
		{name: "the chart unavailable where it runs: keeps running, Ready says why", placed: []string{"member1"}, prev: []addonsv1alpha1.AddonClusterStatus{ran},
			outcomes: map[string]addon.Outcome{"member1": {Err: "fetch chart: 503"}}, works: map[string][]*workv1alpha1.Work{"member1": {healthyWork("2/2.0.0/sha256:old", at)}},
			want: "member1 Healthy 2.0.0 2", wantMsg: "keeps running what it had; the current revision could not be made: fetch chart: 503", wantReason: addon.ReasonNotRenewed},
		{name: "the chart unavailable where nothing runs: Failed", placed: []string{"member1"}, outcomes: map[string]addon.Outcome{"member1": {Err: "fetch chart: 503"}},
			want: "member1 Failed - 0", wantMsg: "fetch chart: 503", wantReason: addon.ReasonNotHealthy},
		{name: "waiting: nothing of it there", placed: []string{"member1"},
			outcomes: map[string]addon.Outcome{"member1": {Verdict: addon.Verdict{Phase: addonsv1alpha1.PhaseWaitingForDependency, Message: "waiting for add-on a"}, ChartVersion: "2.1.0"}},
			want:     "member1 WaitingForDependency - 0", wantMsg: "waiting for add-on a", wantReason: addon.ReasonNotHealthy},
		{name: "a cluster left with Works is Removing", placed: nil, outcomes: map[string]addon.Outcome{},
			works: map[string][]*workv1alpha1.Work{"member9": {healthyWork(current.Rendered, at)}},
			want:  "member9 Removing - 0", wantReason: addon.ReasonNotHealthy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := &addonsv1alpha1.Addon{ObjectMeta: metav1.ObjectMeta{Name: "lc", Generation: 4}, Status: addonsv1alpha1.AddonStatus{Clusters: tt.prev}}
			st := Status(StatusInput{Addon: a, Placed: tt.placed, Outcomes: tt.outcomes, Works: tt.works})
			var parts []string
			for _, c := range st.Clusters {
				chart := c.ChartVersion
				if chart == "" {
					chart = "-"
				}
				parts = append(parts, strings.Join([]string{c.Name, string(c.Phase), chart, itoa(c.Revision)}, " "))
			}
			if got := strings.Join(parts, "; "); got != tt.want {
				t.Errorf("clusters %q, want %q", got, tt.want)
			}
			if len(st.Clusters) > 0 && !strings.Contains(st.Clusters[0].Message, tt.wantMsg) {
				t.Errorf("message %q, want it to contain %q", st.Clusters[0].Message, tt.wantMsg)
			}
			if st.ObservedGeneration != 4 || len(st.Conditions) != 3 || st.Conditions[0].Reason != tt.wantReason {
				t.Errorf("generation %d, conditions %+v, want Ready's reason %s", st.ObservedGeneration, st.Conditions, tt.wantReason)
			}
		})
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func TestRelated(t *testing.T) {
	mk := func(name string, deps, conflicts []string) *addonsv1alpha1.Addon {
		a := &addonsv1alpha1.Addon{ObjectMeta: metav1.ObjectMeta{Name: name}}
		for _, d := range deps {
			a.Spec.DependsOn = append(a.Spec.DependsOn, addonsv1alpha1.AddonReference{Name: d})
		}
		for _, c := range conflicts {
			a.Spec.ConflictsWith = append(a.Spec.ConflictsWith, addonsv1alpha1.AddonReference{Name: c})
		}
		return a
	}
	base := mk("base", nil, []string{"rival"})
	all := []*addonsv1alpha1.Addon{base, mk("user", []string{"base"}, nil), mk("rival", nil, nil), mk("hater", nil, []string{"base"}), mk("other", nil, nil)}
	got := Related(base, all)
	want := map[string]bool{"user": true, "rival": true, "hater": true}
	if len(got) != len(want) {
		t.Fatalf("Related = %v, want %v", got, want)
	}
	for _, n := range got {
		if !want[n] {
			t.Errorf("Related = %v, want %v", got, want)
		}
	}
}

func TestNews(t *testing.T) {
	st := func(gen int64, phases ...string) *addonsv1alpha1.AddonStatus {
		s := &addonsv1alpha1.AddonStatus{ObservedGeneration: gen}
		for i, p := range phases {
			s.Clusters = append(s.Clusters, addonsv1alpha1.AddonClusterStatus{Name: "member" + strconv.Itoa(i+1), Phase: addonsv1alpha1.AddonPhase(p), Message: "x" + p})
		}
		return s
	}
	tests := []struct {
		name     string
		old, new *addonsv1alpha1.AddonStatus
		want     bool
	}{
		{"progress while installing", st(1, "Installing", "Healthy"), func() *addonsv1alpha1.AddonStatus {
			s := st(1, "Installing", "Healthy")
			s.Clusters[0].Message = "not healthy yet: Deployment a"
			return s
		}(), false},
		{"a cluster turns Healthy", st(1, "Installing", "Installing"), st(1, "Healthy", "Installing"), true},
		{"a cluster starts installing after waiting", st(1, "WaitingForDependency"), st(1, "Installing"), false},
		{"a cluster fails", st(1, "Installing"), st(1, "Failed"), true},
		{"a new generation", st(1, "Healthy"), st(2, "Healthy"), true},
		{"a cluster placed", st(1, "Healthy"), st(1, "Healthy", ""), true},
	}
	for _, tt := range tests {
		if got := News(tt.old, tt.new); got != tt.want {
			t.Errorf("%s: News = %v, want %v", tt.name, got, tt.want)
		}
	}
}
