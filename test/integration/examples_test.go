package integration

import (
	"path/filepath"
	"testing"

	"github.com/mco-org/mco/pkg/testing/repo"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestKarmadaExamplesApplyUnchanged applies every one of Karmada's example
// manifests with a server dry-run, after creating the namespace they need.
func TestKarmadaExamplesApplyUnchanged(t *testing.T) {
	t.Parallel()
	files, _ := filepath.Glob(filepath.Join(repo.RequireKarmadaExamples(t), "*.yaml"))
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, "", "create", "namespace", "karmada-cluster")
	for _, f := range files {
		out, errOut, err := s.Kubectl(t, "", "apply", "--dry-run=server", "--validate=strict", "-f", f)
		if err != nil {
			t.Errorf("%s: %v\n%s%s", filepath.Base(f), err, out, errOut)
		}
	}
}
