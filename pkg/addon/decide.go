package addon

import (
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/Masterminds/semver/v3"

	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
)

// Peer is what the decision reads of an add-on in the cluster decided for:
// the add-on itself, or another.
type Peer struct {
	Name          string
	Created       time.Time
	DependsOn     []string
	ConflictsWith []string
	// Placed: a policy places the add-on on the cluster.
	Placed bool
	// Installed: something of the add-on is applied in the cluster.
	Installed bool
	// Undecided: a policy claims the add-on but where it goes is not
	// decided yet (no binding, or one not scheduled at its generation).
	Undecided bool
	// Phase of the add-on in the cluster ("" when it has none).
	Phase addonsv1alpha1.AddonPhase
}

// Range is a Kubernetes version range an add-on must satisfy, and where it
// is written.
type Range struct {
	Source     string // "spec.kubeVersion", "the chart's kubeVersion"
	Constraint string
}

// Input is what deciding one add-on in one cluster reads.
type Input struct {
	Cluster     string
	KubeVersion string // the member's, such as v1.34.4
	Self        Peer
	Ranges      []Range
	// Others are the other Addons, by name.
	Others map[string]Peer
}

// Verdict says whether the add-on's objects may go to the cluster: Phase
// is empty when they may, WaitingForDependency or Blocked when they may
// not, with a message a person can act on.
type Verdict struct {
	Phase   addonsv1alpha1.AddonPhase
	Message string
}

// Proceed tells whether the add-on's objects may go to the cluster.
func (v Verdict) Proceed() bool { return v.Phase == "" }

// Decide says whether an add-on may be installed in a cluster now, in this
// order: a dependency cycle, the Kubernetes version ranges, conflicts
// (symmetric: either add-on may name the other), then dependencies. An
// add-on installed there already keeps going when a dependency turns
// unhealthy: only what it conflicts with and its ranges can stop it.
func Decide(in Input) Verdict {
	if cycle := findCycle(in.Self, in.Others); cycle != nil {
		return Verdict{addonsv1alpha1.PhaseBlocked, "dependency cycle: " + strings.Join(cycle, " → ")}
	}
	if v := checkRanges(in); !v.Proceed() {
		return v
	}
	if v := checkConflicts(in); !v.Proceed() {
		return v
	}
	if in.Self.Installed {
		return Verdict{}
	}
	return checkDependencies(in)
}

func checkRanges(in Input) Verdict {
	if len(in.Ranges) == 0 {
		return Verdict{}
	}
	version, err := semver.NewVersion(in.KubeVersion)
	if err != nil {
		return Verdict{addonsv1alpha1.PhaseBlocked, fmt.Sprintf("cluster %s reports no usable Kubernetes version (%q): %v", in.Cluster, in.KubeVersion, err)}
	}
	var failed []string
	for _, r := range in.Ranges {
		c, err := semver.NewConstraint(r.Constraint)
		if err != nil {
			failed = append(failed, fmt.Sprintf("%s %q is not a version range: %v", r.Source, r.Constraint, err))
			continue
		}
		if !c.Check(version) {
			failed = append(failed, fmt.Sprintf("%s %q", r.Source, r.Constraint))
		}
	}
	if len(failed) == 0 {
		return Verdict{}
	}
	all := make([]string, len(in.Ranges))
	for i, r := range in.Ranges {
		all[i] = fmt.Sprintf("%s %q", r.Source, r.Constraint)
	}
	return Verdict{addonsv1alpha1.PhaseBlocked, fmt.Sprintf("cluster %s runs Kubernetes %s, outside %s (ranges: %s)",
		in.Cluster, in.KubeVersion, strings.Join(failed, " and "), strings.Join(all, ", "))}
}

// checkConflicts blocks the add-on where one it conflicts with is
// installed, or is placed too and older (then by name), neither being
// installed yet, or is older and not placed yet by the policy that claims
// it (arriving together, the older one goes first).
func checkConflicts(in Input) Verdict {
	for _, name := range conflicting(in.Self, in.Others) {
		o := in.Others[name]
		switch {
		case o.Installed:
			return Verdict{addonsv1alpha1.PhaseBlocked, fmt.Sprintf("conflicts with add-on %s, installed in cluster %s", name, in.Cluster)}
		case in.Self.Installed:
			continue // this one got there first
		case o.Undecided && older(o, in.Self):
			// Both arrived together: the older one's placement decides.
			return Verdict{addonsv1alpha1.PhaseBlocked, fmt.Sprintf("conflicts with add-on %s, older, whose placement is not decided yet", name)}
		case !o.Placed:
			continue
		case older(o, in.Self):
			return Verdict{addonsv1alpha1.PhaseBlocked, fmt.Sprintf("conflicts with add-on %s, also placed on cluster %s and older", name, in.Cluster)}
		}
	}
	return Verdict{}
}

// conflicting lists, sorted, the add-ons self conflicts with: those it
// names and those that name it.
func conflicting(self Peer, others map[string]Peer) []string {
	set := map[string]bool{}
	for _, n := range self.ConflictsWith {
		if _, ok := others[n]; ok {
			set[n] = true
		}
	}
	for name, o := range others {
		if contains(o.ConflictsWith, self.Name) {
			set[name] = true
		}
	}
	out := make([]string, 0, len(set))
	for n := range set {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
}

func older(a, b Peer) bool {
	if !a.Created.Equal(b.Created) {
		return a.Created.Before(b.Created)
	}
	return a.Name < b.Name
}

// checkDependencies waits for every add-on self depends on to be placed
// on the cluster and Healthy there, naming the first that is not.
func checkDependencies(in Input) Verdict {
	for _, name := range in.Self.DependsOn {
		o, ok := in.Others[name]
		var why string
		switch {
		case !ok:
			why = "which does not exist"
		case !o.Placed:
			why = "which is not placed on cluster " + in.Cluster
		case o.Phase == addonsv1alpha1.PhaseHealthy:
			continue
		case o.Phase == "":
			why = "not installed there yet"
		default:
			why = string(o.Phase) + " there"
		}
		return Verdict{addonsv1alpha1.PhaseWaitingForDependency, fmt.Sprintf("waiting for add-on %s, %s", name, why)}
	}
	return Verdict{}
}

// findCycle returns a dependency cycle through self, as the names along
// it ending where it started, or nil.
func findCycle(self Peer, others map[string]Peer) []string {
	deps := func(name string) []string {
		if name == self.Name {
			return self.DependsOn
		}
		return others[name].DependsOn
	}
	var path []string
	onPath, done := map[string]bool{}, map[string]bool{}
	var visit func(string) []string
	visit = func(name string) []string {
		path = append(path, name)
		onPath[name] = true
		for _, d := range deps(name) {
			if d == self.Name {
				return append(append([]string{}, path...), d)
			}
			if onPath[d] || done[d] {
				continue
			}
			if c := visit(d); c != nil {
				return c
			}
		}
		onPath[name] = false
		done[name] = true
		path = path[:len(path)-1]
		return nil
	}
	return visit(self.Name)
}
