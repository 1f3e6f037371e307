package integration

import (
	"bufio"
	"context"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/cli"
	"github.com/mco-org/mco/test/integration/framework"
)

// TestKubectlVerbs covers explain, describe, version, scale and watch.
func TestKubectlVerbs(t *testing.T) {
	t.Parallel()
	s := framework.StartAPIServer(t, "")
	s.MustKubectl(t, testdata(t, "deployment.yaml"), "apply", "-f", "-")

	t.Run("explain shows the replica scheduling fields", func(t *testing.T) {
		out := s.MustKubectl(t, "", "explain", "propagationpolicy.spec.placement.replicaScheduling")
		for _, want := range []string{"replicaSchedulingType", "replicaDivisionPreference", "weightPreference"} {
			if !strings.Contains(out, want) {
				t.Errorf("explain output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("describe deployment prints its spec", func(t *testing.T) {
		out := s.MustKubectl(t, "", "describe", "deployment", "nginx")
		for _, want := range []string{"Name:", "nginx", "Replicas:", "nginx:1.27"} {
			if !strings.Contains(out, want) {
				t.Errorf("describe output lacks %q:\n%s", want, out)
			}
		}
	})
	t.Run("version reports a 1.37 server", func(t *testing.T) {
		out := s.MustKubectl(t, "", "version")
		if !strings.Contains(out, "Server Version: v1.37") {
			t.Errorf("kubectl version:\n%s", out)
		}
	})
	t.Run("scale changes the replicas", func(t *testing.T) {
		s.MustKubectl(t, "", "scale", "deployment", "nginx", "--replicas=5")
		out := s.MustKubectl(t, "", "get", "deployment", "nginx", "-o", "jsonpath={.spec.replicas}")
		if out != "5" {
			t.Errorf("replicas after scale = %q, want 5", out)
		}
	})
	t.Run("get -w sees an update", func(t *testing.T) {
		watchSeesLabel(t, s)
	})
}

// watchSeesLabel starts kubectl get -w, labels the deployment and waits
// for the watch to print the new version.
func watchSeesLabel(t *testing.T, s *framework.APIServer) {
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, framework.Binary(t, "kubectl"), "--kubeconfig", s.Kubeconfig, "--cache-dir", cli.CacheDir(s.Kubeconfig), "--server", s.URL(),
		"get", "deployment", "nginx", "-w", "--output-watch-events", "-o", "jsonpath={.type} {.object.metadata.labels.tier}{\"\\n\"}")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cancel(); _ = cmd.Wait() }()
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	// The first event is the current state.
	select {
	case l := <-lines:
		if !strings.HasPrefix(l, "ADDED") {
			t.Fatalf("first watch line %q, want ADDED", l)
		}
	case <-ctx.Done():
		t.Fatal("watch printed nothing")
	}
	s.MustKubectl(t, "", "label", "deployment", "nginx", "tier=web")
	for {
		select {
		case l, ok := <-lines:
			if !ok {
				t.Fatal("watch ended early")
			}
			if l == "MODIFIED web" {
				return
			}
		case <-ctx.Done():
			t.Fatal("watch did not see the label")
		}
	}
}
