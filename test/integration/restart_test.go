package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestRestartKeepsState restarts the server on the same data directory:
// objects, the PKI and the admin kubeconfig survive.
func TestRestartKeepsState(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, testdata(t, "deployment.yaml"), "apply", "-f", "-")
	s.MustKubectl(t, testdata(t, "cluster.yaml"), "apply", "-f", "-")
	uid := s.MustKubectl(t, "", "get", "deployment", "nginx", "-o", "jsonpath={.metadata.uid}")

	s.Restart(t)

	got := s.MustKubectl(t, "", "get", "deployment", "nginx", "-o", "jsonpath={.metadata.uid}")
	if got != uid {
		t.Errorf("deployment uid after restart = %q, want %q", got, uid)
	}
	out := s.MustKubectl(t, "", "get", "clusters", "-o", "name")
	if !strings.Contains(out, "cluster.cluster.karmada.io/member1") {
		t.Errorf("cluster missing after restart: %s", out)
	}
}
