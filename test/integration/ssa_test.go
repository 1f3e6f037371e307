package integration

import (
	"strings"
	"testing"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestServerSideApply applies twice with one manager (no change, no error)
// and then conflicts with another manager owning the same field.
func TestServerSideApply(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	for _, file := range []string{"deployment.yaml", "propagationpolicy.yaml", "cluster.yaml"} {
		in := testdata(t, file)
		s.MustKubectl(t, in, "apply", "--server-side", "--field-manager=alice", "-f", "-")
		out := s.MustKubectl(t, in, "apply", "--server-side", "--field-manager=alice", "-f", "-")
		if !strings.Contains(out, "serverside-applied") {
			t.Errorf("%s: second apply printed %q", file, out)
		}
	}
	changed := strings.Replace(testdata(t, "deployment.yaml"), "replicas: 2", "replicas: 7", 1)
	_, errOut, err := s.Kubectl(t, changed, "apply", "--server-side", "--field-manager=bob", "-f", "-")
	if err == nil || !strings.Contains(errOut, "conflict") || !strings.Contains(errOut, ".spec.replicas") {
		t.Fatalf("apply by another manager: err=%v stderr=%s, want a conflict on .spec.replicas", err, errOut)
	}
	s.MustKubectl(t, changed, "apply", "--server-side", "--field-manager=bob", "--force-conflicts", "-f", "-")
	out := s.MustKubectl(t, "", "get", "deployment", "nginx", "-o", "jsonpath={.spec.replicas}")
	if out != "7" {
		t.Errorf("replicas after forced apply = %q, want 7", out)
	}
	// The policy's managed fields name its manager.
	out = s.MustKubectl(t, "", "get", "pp", "nginx-propagation", "-o", "jsonpath={.metadata.managedFields[*].manager}", "--show-managed-fields")
	if !strings.Contains(out, "alice") {
		t.Errorf("managed fields of the policy: %q", out)
	}
}
