// Package framework brings up mco and real member clusters once per e2e
// suite, and stops every process by pid when the suite ends, also when it
// fails.
package framework

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// Env is the environment shared by the suite's tests.
var Env *localcluster.Env

// PullMember is the member the suite serves in Pull mode by default.
const PullMember = "member3"

// OwnKubeVersion is the Kubernetes version of mco's own member binaries.
const OwnKubeVersion = "v1.37.2"

// MemberVersion is the Kubernetes version member name runs in this suite.
func MemberVersion(name string) string {
	if Env != nil {
		for _, m := range Env.Members {
			if m.Spec.Name == name && m.Spec.Version != "" {
				return m.Spec.Version
			}
		}
	}
	return OwnKubeVersion
}

// MemberVersions are the members the suite runs on another Kubernetes
// version by default (MCO_E2E_MEMBER_VERSIONS overrides, "" for none),
// as name=version pairs; hack/test-deps.sh builds their binaries.
const MemberVersions = "member2=v1.34.4"

// BinDir holds the binaries the suite runs, kubectl among them.
var BinDir string

// Timing is the suite's: a member that stops answering is NotReady after
// 6 s of failed probes (three status updates, and at least two probes of
// up to 5 s each), Ready again after 4 s of answers, and a Pull member
// whose agent stops renewing its Lease is Unknown after 16 s (eight
// renewals). A component killed while it leads (the serial tests kill
// mco-controller-manager and the agent) is replaced after 8 s, not 15: a
// leader renews every second and gives up after 6 s without an answer. An
// agent that lost mco-apiserver tries again after 2, 4, 8, 8... s, not
// 5, 10, 20, 40... s.
// make local-up keeps localcluster.DefaultTiming (10 s, 5 s, 30 s, the
// binaries' leader election), long enough for a person to watch.
func Timing() localcluster.Timing {
	return localcluster.Timing{
		StatusUpdate: 2 * time.Second,
		Failure:      6 * time.Second, Success: 4 * time.Second,
		MonitorPeriod: 2 * time.Second,
		MonitorGrace:  16 * time.Second, StartupGrace: 16 * time.Second,
		LeaseDuration: 16 * time.Second,
		LeaderLease:   8 * time.Second, LeaderRenew: 6 * time.Second, LeaderRetry: time.Second,
		AgentRetryInitial: 2 * time.Second, AgentRetryMax: 8 * time.Second,
	}
}

// DefaultParallel is how many parallel tests run at a time unless
// -test.parallel or MCO_E2E_PARALLEL says otherwise: the suite's tests
// mostly wait on the members, and on 2 cores three at a time keep them
// busy without starving the control plane.
const DefaultParallel = 3

// Run is the suite's TestMain body: it starts the default topology, runs
// the tests, prints component logs when a test failed and stops everything.
func Run(m *testing.M) int {
	if err := setParallel(); err != nil {
		fmt.Fprintln(os.Stderr, "e2e:", err)
		return 1
	}
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
	versions, ok := os.LookupEnv("MCO_E2E_MEMBER_VERSIONS")
	if !ok {
		versions = MemberVersions
	}
	if members, err = localcluster.WithVersions(members, versions); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	for _, m := range members {
		if m.Version == "" {
			continue
		}
		if _, err := os.Stat(filepath.Join(binDir, "kube-"+m.Version, "kube-apiserver")); err != nil {
			fmt.Fprintf(os.Stderr, "e2e: %s runs Kubernetes %s, whose binaries are missing: run 'KUBE_VERSION=%s hack/build-tools.sh' (make test does)\n", m.Name, m.Version, m.Version)
			return 1
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	start := time.Now()
	timing := Timing()
	Env, err = localcluster.Up(ctx, localcluster.Options{
		Dir: dir, BinDir: binDir, Members: members, ControlPlane: true, Timing: &timing,
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
	// MCO_E2E_KEEP=1 keeps the state and logs of a run that passed too.
	if code == 0 && os.Getenv("MCO_E2E_KEEP") != "1" {
		_ = os.RemoveAll(dir)
	}
	return code
}

// setParallel sets -test.parallel to MCO_E2E_PARALLEL, or to
// DefaultParallel, unless the command line set it.
func setParallel() error {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if set {
		return nil
	}
	n := strconv.Itoa(DefaultParallel)
	if v := os.Getenv("MCO_E2E_PARALLEL"); v != "" {
		if i, err := strconv.Atoi(v); err != nil || i < 1 {
			return fmt.Errorf("MCO_E2E_PARALLEL=%q: want a positive number", v)
		}
		n = v
	}
	return flag.Set("test.parallel", n)
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
