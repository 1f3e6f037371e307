package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// TestLeaderTakeover: a second mco-scheduler and mco-controller-manager
// stand by; the leading ones are killed with SIGKILL; the standbys take
// their leases over, what was propagated before stays, and a new
// Deployment propagates. The takeover times are logged.
func TestLeaderTakeover(t *testing.T) {
	ns := namespace(t, "e2e-takeover")
	kubectl(t, deploymentYAML(ns, "before", 1, "10m")+"---\n"+onlyOn(ns, "before", "member1", "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "before", map[string]int32{"member1": 1})

	kube, _ := mcoClients(t)
	cp := framework.Env.MCO
	leaders := []struct {
		lease string
		proc  *localcluster.Process
	}{{"mco-scheduler", cp.Scheduler}, {"mco-controller-manager", cp.ControllerManager}}
	ctx := context.Background()
	standbys := map[string]*localcluster.Component{}
	for _, l := range leaders {
		waitHolder(t, kube, l.lease, l.proc.PID)
		s, err := localcluster.StartStandby(ctx, l.proc, filepath.Join(filepath.Dir(l.proc.Log), "standby"))
		if s != nil {
			standbys[l.lease] = s
			proc := l.proc
			t.Cleanup(func() { handBack(t, kube, l.lease, proc, s) })
		}
		if err != nil {
			t.Fatal(err)
		}
	}

	killed := time.Now()
	for _, l := range leaders {
		if err := l.proc.Kill(); err != nil {
			t.Fatal(err)
		}
	}
	for _, l := range leaders {
		waitHolder(t, kube, l.lease, standbys[l.lease].PID)
		t.Logf("%s: the standby holds the lease %s after the leader was killed", l.lease, time.Since(killed).Round(100*time.Millisecond))
	}

	start := time.Now()
	kubectl(t, deploymentYAML(ns, "after", 1, "10m")+"---\n"+onlyOn(ns, "after", "member1", "Abort"), "apply", "-f", "-")
	waitReplicas(t, ns, "after", map[string]int32{"member1": 1})
	t.Logf("a new Deployment reached member1 %s after it was applied, under the new leaders", time.Since(start).Round(100*time.Millisecond))
	waitReplicas(t, ns, "before", map[string]int32{"member1": 1})
}

// waitHolder waits until the lease kube-system/name is held by the
// process pid (identities are "<host>_<pid>").
func waitHolder(t *testing.T, kube kubernetes.Interface, name string, pid int) {
	t.Helper()
	host, _ := os.Hostname()
	want := host + "_" + strconv.Itoa(pid)
	// A killed leader's lease runs out after its duration (15s) first.
	eventually(t, 60*time.Second, fmt.Sprintf("lease %s held by %s", name, want), func(ctx context.Context) (bool, string) {
		l, err := kube.CoordinationV1().Leases(metav1.NamespaceSystem).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		holder := ""
		if l.Spec.HolderIdentity != nil {
			holder = *l.Spec.HolderIdentity
		}
		return holder == want, "held by " + holder
	})
}

// handBack gives the environment's own process its lease back for the
// tests that follow: it starts again (as a standby), the standby stops
// with SIGTERM and releases the lease, and the restarted one takes it.
func handBack(t *testing.T, kube kubernetes.Interface, lease string, proc *localcluster.Process, standby *localcluster.Component) {
	if !proc.Running() {
		if err := proc.Restart(); err != nil {
			t.Errorf("restart %s: %v", proc.Name, err)
			return
		}
	}
	standby.Stop(20 * time.Second)
	waitHolder(t, kube, lease, proc.PID)
}
