package localcluster

import (
	"fmt"
	"slices"
	"strings"
)

// DefaultMembers is the topology of `make local-up`: two regions, three
// zones, different capacities, so that placement and replica division by
// available capacity can be seen.
func DefaultMembers() []MemberSpec {
	return []MemberSpec{
		{Name: "member1", Region: "cn-north", Zone: "cn-north-a",
			Labels: map[string]string{"environment": "production"},
			Nodes:  []NodeSpec{{Count: 2, CPU: "8", Memory: "64Gi", Pods: "110"}}},
		{Name: "member2", Region: "cn-north", Zone: "cn-north-b",
			Labels: map[string]string{"environment": "staging"},
			Nodes:  []NodeSpec{{Count: 1, CPU: "4", Memory: "32Gi", Pods: "110"}}},
		{Name: "member3", Region: "cn-south", Zone: "cn-south-a",
			Labels: map[string]string{"environment": "production"},
			Nodes:  []NodeSpec{{Count: 3, CPU: "8", Memory: "64Gi", Pods: "110"}}},
	}
}

// WithPull marks the members named in the comma-separated list pull (none
// when empty) as Pull members.
func WithPull(members []MemberSpec, pull string) ([]MemberSpec, error) {
	for _, name := range strings.Split(pull, ",") {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		i := slices.IndexFunc(members, func(m MemberSpec) bool { return m.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("no member %q to run in Pull mode", name)
		}
		members[i].Pull = true
	}
	return members, nil
}

// WithVersions runs members on other Kubernetes versions: versions is a
// comma-separated list of name=version (e.g. "member2=v1.34.4"). Their
// binaries are BinDir/kube-<version>/ (hack/build-tools.sh with
// KUBE_VERSION builds them there).
func WithVersions(members []MemberSpec, versions string) ([]MemberSpec, error) {
	for _, pair := range strings.Split(versions, ",") {
		pair = strings.TrimSpace(pair)
		if pair == "" {
			continue
		}
		name, version, ok := strings.Cut(pair, "=")
		if !ok || !strings.HasPrefix(version, "v") {
			return nil, fmt.Errorf("member version %q: want name=vX.Y.Z", pair)
		}
		i := slices.IndexFunc(members, func(m MemberSpec) bool { return m.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("no member %q to run on %s", name, version)
		}
		members[i].Version = version
	}
	return members, nil
}
