package e2e

import (
	"sync"
	"testing"
	"time"

	"github.com/mco-org/mco/test/e2e/framework"
)

// outageCheck is one check of what a member's outage does. setup runs
// before the member stops answering and returns what to check while it
// is away and once it is back (either may be nil).
type outageCheck struct {
	name  string
	setup func(t *testing.T) (during, after func(t *testing.T))
}

// runOutage pauses member's kube-apiserver once for several checks: a
// pause costs the failure threshold and the recovery, the same for one
// check as for five. The checks set up one after another (on t, which
// keeps what they create until the test ends), then check at once, each
// in a subtest of its own, while the member is away and again once it is
// Ready and untainted. A check whose while-away part failed skips the
// rest.
func runOutage(t *testing.T, member string, checks []outageCheck) {
	t.Helper()
	type phases struct {
		during, after func(t *testing.T)
		failed        bool
	}
	ps := make([]*phases, len(checks))
	for i, c := range checks {
		during, after := c.setup(t)
		ps[i] = &phases{during: during, after: after}
	}
	resume := pauseMember(t, member)
	t.Logf("%s paused at %s", member, time.Now().Format(time.TimeOnly))
	// Each phase's subtests run at once rather than as parallel subtests:
	// those would wait for the suite's parallel slots, and a check that
	// starts late sees less of the outage.
	all := func(phase string, part func(p *phases) func(t *testing.T)) {
		t.Run(phase, func(t *testing.T) {
			var wg sync.WaitGroup
			for i, c := range checks {
				p := ps[i]
				f := part(p)
				if f == nil || p.failed {
					continue
				}
				wg.Add(1)
				go func() {
					defer wg.Done()
					if !t.Run(c.name, f) {
						p.failed = true
					}
				}()
			}
			wg.Wait()
		})
	}
	all("while "+member+" is away", func(p *phases) func(t *testing.T) { return p.during })
	resume()
	waitClusterHealthy(t, member)
	all("once "+member+" is back", func(p *phases) func(t *testing.T) { return p.after })
}

// TestMember2Outage: member2 stops answering once, for every check of
// what follows: Ready turns False and the cluster is tainted
// (clusterHealthAndTaints), its replicas move to member1
// (failoverMovesReplicas, rebalanceAfterFailover), a workload with nowhere
// else to go stays and says why (failoverWithoutAlternative), the open
// dashboard shows it NotReady (dashboardInBrowser), and its endpoints leave
// the consumers of a MultiClusterService (mcsProviderOutage), and a
// FederatedHPA counts member1's pods alone (fhpaWithoutMember); then each
// checks what happens once member2 is back.
func TestMember2Outage(t *testing.T) {
	framework.Serial(t, "pauses member2, which taints it and evicts every workload there")
	runOutage(t, "member2", []outageCheck{
		{"ClusterHealthAndTaints", clusterHealthAndTaints},
		{"FailoverMovesReplicas", failoverMovesReplicas},
		{"FailoverWithoutAlternative", failoverWithoutAlternative},
		{"FailoverCarriesState", failoverCarriesState},
		{"RebalanceAfterFailover", rebalanceAfterFailover},
		{"DashboardInBrowser", dashboardInBrowser},
		{"MultiClusterServiceProvider", mcsProviderOutage},
		{"FederatedHPAWithoutMember", fhpaWithoutMember},
	})
}
