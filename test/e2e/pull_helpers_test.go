package e2e

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/pkg/testing/localcluster"
	"github.com/mco-org/mco/test/e2e/framework"
)

// pullMember returns the suite's Pull member, skipping the test when the
// suite runs without one.
func pullMember(t *testing.T) *localcluster.Member {
	t.Helper()
	for _, m := range framework.Env.Members {
		if m.Spec.Pull {
			return m
		}
	}
	t.Skip("the suite runs without a Pull member (MCO_E2E_PULL_MEMBERS)")
	return nil
}

// pushMembers are the members mco reaches itself.
func pushMembers() []string {
	var out []string
	for _, m := range framework.Env.Members {
		if !m.Spec.Pull {
			out = append(out, m.Spec.Name)
		}
	}
	return out
}

// waitAgentStopped waits until m's agent has stopped by itself, and
// returns the end of its log.
func waitAgentStopped(t *testing.T, m *localcluster.Member, within time.Duration) string {
	t.Helper()
	eventually(t, within, "agent of "+m.Spec.Name+" stopped", func(context.Context) (bool, string) {
		return !m.Agent.Running(), "running"
	})
	return m.Agent.LogTail(2000)
}

// restartAgent starts m's agent again once the running one has stopped,
// and waits until mco has its Cluster Ready.
func restartAgent(t *testing.T, m *localcluster.Member) {
	t.Helper()
	if m.Agent.Running() {
		if tail := waitAgentStopped(t, m, 30*time.Second); !strings.Contains(tail, "deleted from mco") {
			t.Errorf("the agent's log does not say why it stopped:\n%s", tail)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	if err := framework.Env.StartAgent(ctx, m); err != nil {
		t.Fatal(err)
	}
	_, mco := mcoClients(t)
	eventually(t, 60*time.Second, m.Spec.Name+" ready again", func(ctx context.Context) (bool, string) {
		c, err := mco.ClusterV1alpha1().Clusters().Get(ctx, m.Spec.Name, metav1.GetOptions{})
		if err != nil {
			return false, err.Error()
		}
		return meta.IsStatusConditionTrue(c.Status.Conditions, "Ready"), "not ready"
	})
}

// httpOK tells whether a GET of url answers 200.
func httpOK(ctx context.Context, url string) bool {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, url, nil)
	if err != nil {
		return false
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return false
	}
	_ = resp.Body.Close()
	return resp.StatusCode == http.StatusOK
}
