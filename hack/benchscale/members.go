package main

import (
	"fmt"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// scaleMembers are n members of different shapes: member i of n has 16·i
// CPUs and 64·(n+1-i) GiB of memory on one node (that nothing runs on), so
// that Deployments asking mostly for CPU, mostly for memory or for both
// find their most room in different members, and the scheduler's choice
// of three spreads them over most of the ten. Regions and zones group
// them in pairs.
func scaleMembers(n int) []localcluster.MemberSpec {
	out := make([]localcluster.MemberSpec, n)
	for i := range out {
		k := i + 1
		out[i] = localcluster.MemberSpec{
			Name:   memberName(k),
			Region: fmt.Sprintf("region-%d", (k+1)/2),
			Zone:   fmt.Sprintf("zone-%d", k),
			Nodes: []localcluster.NodeSpec{{
				Count: 1, CPU: fmt.Sprint(16 * k), Memory: fmt.Sprintf("%dGi", 64*(n+1-k)), Pods: "100000",
			}},
		}
	}
	return out
}

func memberName(k int) string { return fmt.Sprintf("member%02d", k) }
