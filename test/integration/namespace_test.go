package integration

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/test/integration/framework"
	"k8s.io/apimachinery/pkg/util/wait"
)

// TestNamespaceLifecycle: system namespaces exist, objects cannot be created
// in a missing namespace, and deleting a namespace removes its objects.
func TestNamespaceLifecycle(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	out := s.MustKubectl(t, "", "get", "namespaces", "-o", "name")
	for _, ns := range []string{"default", "kube-system", "kube-public"} {
		if !strings.Contains(out, "namespace/"+ns) {
			t.Errorf("namespace %s missing: %s", ns, out)
		}
	}

	_, errOut, err := s.Kubectl(t, testdata(t, "deployment.yaml"), "apply", "-n", "nowhere", "-f", "-")
	if err == nil || !strings.Contains(errOut, "not found") {
		t.Errorf("create in a missing namespace: err=%v stderr=%s", err, errOut)
	}

	s.MustKubectl(t, "", "create", "namespace", "team-a")
	s.MustKubectl(t, testdata(t, "deployment.yaml"), "apply", "-n", "team-a", "-f", "-")
	s.MustKubectl(t, testdata(t, "propagationpolicy.yaml"), "apply", "-n", "team-a", "-f", "-")
	s.MustKubectl(t, "", "create", "configmap", "settings", "-n", "team-a", "--from-literal=a=b")
	s.MustKubectl(t, "", "delete", "namespace", "team-a", "--wait=false")
	// The policy's finalizer holds the namespace until the policy controller,
	// not running here, lets go of the policy; do its part.
	releasePolicy(t, s, "team-a", "nginx-propagation")

	deadline := time.Now().Add(60 * time.Second)
	for {
		_, errOut, err := s.Kubectl(t, "", "get", "namespace", "team-a")
		if err != nil && strings.Contains(errOut, "NotFound") {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("namespace team-a still there: %s", errOut)
		}
		time.Sleep(500 * time.Millisecond)
	}
	for _, r := range []string{"deployments", "propagationpolicies", "configmaps"} {
		out, _, _ := s.Kubectl(t, "", "get", r, "-n", "team-a", "-o", "name")
		if strings.TrimSpace(out) != "" {
			t.Errorf("%s left in deleted namespace: %s", r, out)
		}
	}
	_, errOut, err = s.Kubectl(t, "", "delete", "namespace", "kube-system")
	if err == nil {
		t.Errorf("deleting kube-system succeeded; stderr=%s", errOut)
	}
}

// releasePolicy removes the finalizers of a PropagationPolicy once it is
// being deleted, as mco-controller-manager would.
func releasePolicy(t *testing.T, s *framework.APIServer, namespace, name string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), 200*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		out := s.MustKubectl(t, "", "get", "pp", name, "-n", namespace, "-o", "jsonpath={.metadata.deletionTimestamp}")
		return out != "", nil
	})
	if err != nil {
		t.Fatalf("policy %s/%s was not deleted", namespace, name)
	}
	s.MustKubectl(t, "", "patch", "pp", name, "-n", namespace, "--type=merge", "-p", `{"metadata":{"finalizers":null}}`)
}
