// Package framework brings up mco and real member clusters once per e2e
// suite, and stops every process by pid when the suite ends, also when it
// fails.
package framework

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// Env is the environment shared by the suite's tests.
var Env *localcluster.Env

// PullMember is the member the suite serves in Pull mode by default.
const PullMember = "member3"

// BinDir holds the binaries the suite runs, kubectl among them.
var BinDir string

// Run is the suite's TestMain body: it starts the default topology, runs
// the tests, prints component logs when a test failed and stops everything.
func Run(m *testing.M) int {
	root, err := repoRoot()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	dir, err := os.MkdirTemp("", "mco-e2e-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	binDir := filepath.Join(root, "_output", "bin")
	BinDir = binDir
	for _, b := range []string{"etcd", "kube-apiserver", "kube-controller-manager", "kube-scheduler", "kwok", "kwok-stages.yaml", "mco-apiserver", "mco-scheduler", "mco-controller-manager", "mco-agent", "kubectl"} {
		if _, err := os.Stat(filepath.Join(binDir, b)); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: %s missing in %s: run 'make build' and 'hack/build-member-binaries.sh' (make test does both)\n", b, binDir)
			return 1
		}
	}
	// One member is served in Pull mode by mco-agent, so that every test
	// goes through both paths; MCO_E2E_PULL_MEMBERS names others ("" for
	// none).
	pull, ok := os.LookupEnv("MCO_E2E_PULL_MEMBERS")
	if !ok {
		pull = PullMember
	}
	members, err := localcluster.WithPull(localcluster.DefaultMembers(), pull)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	start := time.Now()
	Env, err = localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: binDir, Members: members, ControlPlane: true,
	})
	cancel()
	if err != nil {
		fmt.Fprintln(os.Stderr, "e2e: bring up:", err)
		dumpLogs(dir)
		return 1
	}
	fmt.Printf("e2e: mco and %d members up in %s (state in %s)\n", len(Env.Members), time.Since(start).Round(time.Millisecond), dir)
	code := m.Run()
	// A component that crashed (a panic ends the process) fails the suite
	// even when every test happened to pass.
	for _, p := range Env.Processes() {
		if !p.Running() {
			fmt.Fprintf(os.Stderr, "e2e: %s (pid %d) died during the suite; see %s\n", p.Name, p.PID, p.Log)
			code = 1
		}
	}
	for _, scan := range []func(string) error{scanLogsForTokens, scanLogsForForbidden} {
		if err := scan(dir); err != nil {
			fmt.Fprintln(os.Stderr, "e2e:", err)
			code = 1
		}
	}
	if code != 0 {
		dumpLogs(dir)
	}
	Env.Down()
	// What make local-down relies on: nothing is left running.
	for _, p := range Env.Processes() {
		if p.Running() {
			fmt.Fprintf(os.Stderr, "e2e: %s (pid %d) still running after Down\n", p.Name, p.PID)
			code = 1
		}
	}
	if code == 0 {
		_ = os.RemoveAll(dir)
	}
	return code
}

// dumpLogs prints the end of every component log.
func dumpLogs(dir string) {
	logs, _ := filepath.Glob(filepath.Join(dir, "logs", "*", "*.log"))
	logs2, _ := filepath.Glob(filepath.Join(dir, "logs", "*.log"))
	for _, l := range append(logs2, logs...) {
		data, err := os.ReadFile(l)
		if err != nil {
			continue
		}
		const max = 4000
		if len(data) > max {
			data = data[len(data)-max:]
		}
		fmt.Fprintf(os.Stderr, "===== %s (last %d bytes)\n%s\n", l, len(data), data)
	}
}

func repoRoot() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", fmt.Errorf("cannot locate the repository")
	}
	dir := filepath.Dir(file)
	for !strings.HasSuffix(dir, string(filepath.Separator)) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		dir = filepath.Dir(dir)
	}
	return "", fmt.Errorf("go.mod not found")
}
