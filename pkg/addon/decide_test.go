package addon

import (
	"strings"
	"testing"
	"time"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

func TestDecide(t *testing.T) {
	t0 := time.Date(2026, 12, 5, 0, 0, 0, 0, time.UTC)
	peer := func(name string, mins int, change func(*Peer)) Peer {
		p := Peer{Name: name, Created: t0.Add(time.Duration(mins) * time.Minute), Placed: true}
		if change != nil {
			change(&p)
		}
		return p
	}
	others := func(ps ...Peer) map[string]Peer {
		m := map[string]Peer{}
		for _, p := range ps {
			m[p.Name] = p
		}
		return m
	}
	healthy := func(p *Peer) { p.Installed, p.Phase = true, addonsv1alpha1.PhaseHealthy }
	tests := []struct {
		name      string
		in        Input
		wantPhase addonsv1alpha1.AddonPhase
		wantMsg   string
	}{
		{name: "nothing in the way", in: Input{Cluster: "member1", Self: peer("b", 1, nil)}},
		{name: "a dependency healthy in the cluster lets it go",
			in: Input{Cluster: "member1", Self: peer("b", 1, func(p *Peer) { p.DependsOn = []string{"a"} }), Others: others(peer("a", 0, healthy))}},
		{name: "a dependency still installing keeps it waiting, named",
			in: Input{Cluster: "member1", Self: peer("b", 1, func(p *Peer) { p.DependsOn = []string{"a"} }),
				Others: others(peer("a", 0, func(p *Peer) { p.Installed, p.Phase = true, addonsv1alpha1.PhaseInstalling }))},
			wantPhase: addonsv1alpha1.PhaseWaitingForDependency, wantMsg: "waiting for add-on a, Installing there"},
		{name: "a dependency not placed on the cluster keeps it waiting, and says so",
			in: Input{Cluster: "member2", Self: peer("b", 1, func(p *Peer) { p.DependsOn = []string{"a"} }),
				Others: others(peer("a", 0, func(p *Peer) { p.Placed = false }))},
			wantPhase: addonsv1alpha1.PhaseWaitingForDependency, wantMsg: "waiting for add-on a, which is not placed on cluster member2"},
		{name: "a dependency that does not exist keeps it waiting",
			in:        Input{Cluster: "member1", Self: peer("b", 1, func(p *Peer) { p.DependsOn = []string{"ghost"} })},
			wantPhase: addonsv1alpha1.PhaseWaitingForDependency, wantMsg: "waiting for add-on ghost, which does not exist"},
		{name: "a dependency turning unhealthy does not stop an installed add-on",
			in: Input{Cluster: "member1", Self: peer("b", 1, func(p *Peer) { p.DependsOn = []string{"a"}; p.Installed = true }),
				Others: others(peer("a", 0, func(p *Peer) { p.Installed, p.Phase = true, addonsv1alpha1.PhaseDegraded }))}},
		{name: "a conflicting add-on installed there blocks it",
			in: Input{Cluster: "member1", Self: peer("c", 0, func(p *Peer) { p.ConflictsWith = []string{"a"} }),
				Others: others(peer("a", 5, healthy))},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "conflicts with add-on a, installed in cluster member1"},
		{name: "conflicts are symmetric: the other naming it blocks it too",
			in: Input{Cluster: "member1", Self: peer("c", 0, nil),
				Others: others(peer("a", 5, func(p *Peer) { healthy(p); p.ConflictsWith = []string{"c"} }))},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "conflicts with add-on a"},
		{name: "a conflicting add-on not on the cluster is no conflict",
			in: Input{Cluster: "member2", Self: peer("c", 0, func(p *Peer) { p.ConflictsWith = []string{"a"} }),
				Others: others(peer("a", 5, func(p *Peer) { p.Placed = false }))}},
		{name: "arriving together, the older wins",
			in: Input{Cluster: "member1", Self: peer("c", 1, func(p *Peer) { p.ConflictsWith = []string{"a"} }),
				Others: others(peer("a", 0, nil))},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "conflicts with add-on a, also placed on cluster member1 and older"},
		{name: "arriving together, the younger yields",
			in: Input{Cluster: "member1", Self: peer("a", 0, nil),
				Others: others(peer("c", 1, func(p *Peer) { p.ConflictsWith = []string{"a"} }))}},
		{name: "arriving at the same time, the name decides",
			in: Input{Cluster: "member1", Self: peer("b", 0, func(p *Peer) { p.ConflictsWith = []string{"a"} }),
				Others: others(peer("a", 0, nil))},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "conflicts with add-on a"},
		{name: "arriving together, the younger waits for the older's placement",
			in: Input{Cluster: "member1", Self: peer("c", 1, func(p *Peer) { p.ConflictsWith = []string{"a"} }),
				Others: others(peer("a", 0, func(p *Peer) { p.Placed, p.Undecided = false, true }))},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "conflicts with add-on a, older, whose placement is not decided yet"},
		{name: "a younger conflicting add-on not placed yet does not hold the older back",
			in: Input{Cluster: "member1", Self: peer("a", 0, nil),
				Others: others(peer("c", 1, func(p *Peer) { p.ConflictsWith = []string{"a"}; p.Placed, p.Undecided = false, true }))}},
		{name: "installed first, it stays when an older conflicting add-on is placed later",
			in: Input{Cluster: "member1", Self: peer("c", 1, func(p *Peer) { p.ConflictsWith = []string{"a"}; p.Installed = true }),
				Others: others(peer("a", 0, nil))}},
		{name: "a version inside both ranges",
			in: Input{Cluster: "member1", KubeVersion: "v1.37.2", Self: peer("a", 0, nil),
				Ranges: []Range{{"spec.kubeVersion", ">=1.33.0-0"}, {"the chart's kubeVersion", "<1.40.0-0"}}}},
		{name: "a version outside a range blocks it, with the version and both ranges",
			in: Input{Cluster: "member2", KubeVersion: "v1.34.4", Self: peer("a", 0, nil),
				Ranges: []Range{{"spec.kubeVersion", ">=1.35.0-0"}, {"the chart's kubeVersion", ">=1.20.0-0"}}},
			wantPhase: addonsv1alpha1.PhaseBlocked,
			wantMsg:   `cluster member2 runs Kubernetes v1.34.4, outside spec.kubeVersion ">=1.35.0-0" (ranges: spec.kubeVersion ">=1.35.0-0", the chart's kubeVersion ">=1.20.0-0")`},
		{name: "a pre-release build of a member is inside a range written with -0",
			in: Input{Cluster: "member1", KubeVersion: "v1.37.0-rc.1+abc", Self: peer("a", 0, nil),
				Ranges: []Range{{"spec.kubeVersion", ">=1.33.0-0"}}}},
		{name: "a version range blocks an installed add-on too",
			in: Input{Cluster: "member2", KubeVersion: "v1.34.4", Self: peer("a", 0, func(p *Peer) { p.Installed = true }),
				Ranges: []Range{{"spec.kubeVersion", ">=1.35.0-0"}}},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "outside spec.kubeVersion"},
		{name: "a cluster without a version is blocked where a range applies",
			in:        Input{Cluster: "member1", Self: peer("a", 0, nil), Ranges: []Range{{"spec.kubeVersion", ">=1.33.0-0"}}},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "reports no usable Kubernetes version"},
		{name: "a dependency cycle is reported with its path",
			in: Input{Cluster: "member1", Self: peer("a", 0, func(p *Peer) { p.DependsOn = []string{"b"} }),
				Others: others(peer("b", 0, func(p *Peer) { p.DependsOn = []string{"c"} }), peer("c", 0, func(p *Peer) { p.DependsOn = []string{"a"} }))},
			wantPhase: addonsv1alpha1.PhaseBlocked, wantMsg: "dependency cycle: a → b → c → a"},
		{name: "depending on a cycle it is not part of only waits",
			in: Input{Cluster: "member1", Self: peer("x", 0, func(p *Peer) { p.DependsOn = []string{"b"} }),
				Others: others(peer("b", 0, func(p *Peer) { p.DependsOn = []string{"c"} }), peer("c", 0, func(p *Peer) { p.DependsOn = []string{"b"} }))},
			wantPhase: addonsv1alpha1.PhaseWaitingForDependency, wantMsg: "waiting for add-on b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Decide(tt.in)
			if got.Phase != tt.wantPhase || !strings.Contains(got.Message, tt.wantMsg) {
				t.Errorf("Decide = %s %q, want %s %q", got.Phase, got.Message, tt.wantPhase, tt.wantMsg)
			}
			if got.Proceed() != (tt.wantPhase == "") {
				t.Errorf("Proceed = %v", got.Proceed())
			}
		})
	}
}
