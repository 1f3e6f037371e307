package integration

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/util/wait"

	"github.com/mco-org/mco/test/integration/framework"
)

// TestAuditLog: with the shipped audit policy and a log path, a create is
// recorded with its user, its object and the request body; a Secret's data
// is not.
func TestAuditLog(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	logPath := filepath.Join(dir, "audit.log")
	policy, err := filepath.Abs("../../artifacts/audit/policy.yaml")
	if err != nil {
		t.Fatal(err)
	}
	s := framework.StartAPIServer(t, dir, "--audit-policy-file", policy, "--audit-log-path", logPath)
	s.MustKubectl(t, testdata(t, "propagationpolicy.yaml"), "apply", "-f", "-")
	s.MustKubectl(t, "", "create", "secret", "generic", "audited", "--from-literal=password=audit-plaintext-value")

	type event struct {
		Verb      string                    `json:"verb"`
		Level     string                    `json:"level"`
		User      struct{ Username string } `json:"user"`
		ObjectRef struct {
			Resource, Namespace, Name string
		} `json:"objectRef"`
		RequestObject json.RawMessage `json:"requestObject"`
	}
	var policyCreate, secretCreate *event
	// The log backend writes each event as its request finishes.
	_ = wait.PollUntilContextTimeout(context.Background(), 100*time.Millisecond, 10*time.Second, true, func(context.Context) (bool, error) {
		f, err := os.Open(logPath)
		if err != nil {
			return false, nil
		}
		defer f.Close()
		sc := bufio.NewScanner(f)
		sc.Buffer(make([]byte, 1<<20), 1<<20)
		for sc.Scan() {
			var e event
			if json.Unmarshal(sc.Bytes(), &e) != nil || e.Verb != "create" {
				continue
			}
			switch e.ObjectRef.Resource {
			case "propagationpolicies":
				policyCreate = &e
			case "secrets":
				secretCreate = &e
			}
		}
		return policyCreate != nil && secretCreate != nil, nil
	})
	if policyCreate == nil || secretCreate == nil {
		t.Fatalf("audit log %s lacks the creates (policy %v, secret %v)", logPath, policyCreate != nil, secretCreate != nil)
	}
	if policyCreate.User.Username != "mco-admin" || policyCreate.ObjectRef.Name != "nginx-propagation" ||
		policyCreate.Level != "RequestResponse" || !strings.Contains(string(policyCreate.RequestObject), "nginx") {
		t.Errorf("policy create recorded as %+v", *policyCreate)
	}
	raw, _ := os.ReadFile(logPath)
	if secretCreate.Level != "Metadata" || strings.Contains(string(raw), "audit-plaintext-value") ||
		strings.Contains(string(raw), "YXVkaXQtcGxhaW50ZXh0LXZhbHVl") {
		t.Errorf("a Secret's data reached the audit log (level %s)", secretCreate.Level)
	}
}
