package integration

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mco-org/mco/pkg/testing/repo"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestDebianKubectl120 drives the server with Debian's kubectl 1.20 (legacy
// discovery, OpenAPI v2 validation), which hack/install-debian-kubectl.sh
// unpacks: older clients keep working.
func TestDebianKubectl120(t *testing.T) {
	t.Parallel()
	old := filepath.Join(repo.Root(t), "_output", "debian-kubectl", "usr", "bin", "kubectl")
	if _, err := os.Stat(old); err != nil {
		t.Skipf("Debian kubectl not unpacked (%v); run hack/install-debian-kubectl.sh", err)
	}
	s := framework.StartAPIServer(t, "")
	run := func(stdin string, args ...string) string {
		t.Helper()
		out, errOut, err := s.KubectlWith(t, old, stdin, args...)
		if err != nil {
			t.Fatalf("kubectl 1.20 %s: %v\n%s%s", strings.Join(args, " "), err, out, errOut)
		}
		return out
	}
	run(testdata(t, "deployment.yaml"), "apply", "-f", "-")
	run(testdata(t, "propagationpolicy.yaml"), "apply", "-f", "-")
	run(testdata(t, "cluster.yaml"), "apply", "-f", "-")
	out := run("", "get", "deployments,propagationpolicies,clusters")
	for _, want := range []string{"nginx", "nginx-propagation", "member1"} {
		if !strings.Contains(out, want) {
			t.Errorf("kubectl 1.20 get misses %s:\n%s", want, out)
		}
	}
	run("", "scale", "deployment", "nginx", "--replicas=4")
	if got := run("", "get", "deployment", "nginx", "-o", "jsonpath={.spec.replicas}"); got != "4" {
		t.Errorf("replicas = %q after kubectl 1.20 scale", got)
	}
	// The policy's finalizer holds it until a controller lets go: do not wait.
	run("", "delete", "pp", "nginx-propagation", "--wait=false")
}
