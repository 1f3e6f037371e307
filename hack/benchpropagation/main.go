// Command benchpropagation measures mco's propagation path on one machine:
// mco and three bare members (a kube-apiserver each, nothing acting on what
// arrives), Deployments divided 1:1:1 over the three, and for each the time
// from its create on mco to its presence in every member; then throughput,
// API writes per Deployment and memory, judged against targets. `make
// bench-propagation` runs it. The last line of its output is one JSON object.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"path/filepath"
	"time"

	"github.com/mco-org/mco/hack/internal/benchkit"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

func main() { benchkit.Main("benchpropagation", run) }

// options are the command's flags.
type options struct {
	dir, binDir  string
	deployments  int
	steadyCount  int
	steadyRate   float64
	rawCount     int
	workers      int
	settle       time.Duration
	timeout      time.Duration
	benchSpace   string
	rawNamespace string
	profileDir   string
	profileSecs  int
	// pull names the members served by mco-agent.
	pull string
	// members is "bare" (kube-apiservers only) or "full" (with their
	// controllers, scheduler and kwok nodes, as in local-up).
	members string
	// deleteTimeout bounds the deletion of the Deployments' namespace.
	deleteTimeout time.Duration
	// timing is what mco's components run with (-timing).
	timing *localcluster.Timing
	// apiserverArgs are extra flags of mco-apiserver (-apiserver-arg).
	apiserverArgs []string
}

// full tells whether the members run their controllers and kwok.
func (o *options) full() bool { return o.members == membersFull }

// The member modes of -members.
const (
	membersBare = "bare"
	membersFull = "full"
)

func parseFlags(args []string) (*options, error) {
	o := &options{benchSpace: "bench", rawNamespace: "bench-raw"}
	fs := flag.NewFlagSet("benchpropagation", flag.ContinueOnError)
	fs.StringVar(&o.dir, "dir", "_output/bench-propagation", "state, data and logs (emptied at start; logs stay after)")
	fs.StringVar(&o.binDir, "bin-dir", "_output/bin", "mco and member binaries")
	fs.IntVar(&o.deployments, "deployments", 1000, "Deployments in all (steady phase, then full speed)")
	fs.IntVar(&o.steadyCount, "steady-count", 300, "Deployments created at -steady-rate after the full-speed phase")
	fs.Float64Var(&o.steadyRate, "steady-rate", 0, "creates per second in the steady phase (0: half the full-speed phase's measured rate)")
	fs.StringVar(&o.pull, "pull", "", "comma-separated members registered in Pull mode, each served by a local mco-agent (e.g. member3): latencies are then given per member, with the agents' CPU and memory")
	fs.StringVar(&o.members, "members", membersBare, `"bare": members are kube-apiservers only, so only mco's path is measured; "full": members run kube-controller-manager, kube-scheduler and kwok nodes, so pods come and go and their status flows back`)
	fs.IntVar(&o.rawCount, "raw-count", 1000, "ConfigMaps created to measure mco-apiserver's raw create rate")
	fs.IntVar(&o.workers, "workers", 16, "concurrent creates (raw and full-speed phases)")
	fs.DurationVar(&o.settle, "settle", 5*time.Second, "quiet time before and after the measured phases")
	fs.StringVar(&o.profileDir, "profile-dir", "", "where the CPU profiles of mco-apiserver, mco-controller-manager and mco-scheduler over the start of the full-speed phase go (default: DIR/profiles); when set, the first member's kube-apiserver is profiled too")
	fs.IntVar(&o.profileSecs, "profile-seconds", 20, "length of each profile (encoding and decoding CPU is read from them)")
	fs.DurationVar(&o.deleteTimeout, "delete-timeout", 5*time.Minute, "how long the deletion of the Deployments' namespace may take before it is reported as not done")
	fs.DurationVar(&o.timeout, "timeout", 20*time.Minute, "give up after this long in all")
	timing := benchkit.TimingFlag(fs)
	apiserverArgs := benchkit.ArgsFlag(fs, "apiserver-arg", "an extra flag of mco-apiserver, e.g. --feature-gates=ListFromCacheSnapshot=false (repeatable)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() != 0:
		return nil, fmt.Errorf("unexpected arguments %v", fs.Args())
	case o.deployments < 1 || o.steadyCount < 0 || o.steadyCount > o.deployments:
		return nil, fmt.Errorf("need 1 <= -deployments and 0 <= -steady-count <= -deployments (got %d, %d)", o.deployments, o.steadyCount)
	case o.steadyRate < 0 || o.rawCount < 1 || o.workers < 1 || o.timeout <= 0:
		return nil, fmt.Errorf("-raw-count, -workers and -timeout must be positive, -steady-rate not negative")
	case o.members != membersBare && o.members != membersFull:
		return nil, fmt.Errorf("-members is %q or %q, not %q", membersBare, membersFull, o.members)
	}
	var err error
	if o.timing, err = timing(); err != nil {
		return nil, err
	}
	o.apiserverArgs = *apiserverArgs
	if o.dir, err = filepath.Abs(o.dir); err != nil {
		return nil, err
	}
	if o.binDir, err = filepath.Abs(o.binDir); err != nil {
		return nil, err
	}
	return o, nil
}

func run(ctx context.Context, args []string, out, progress io.Writer) (err error) {
	o, err := parseFlags(args)
	if err != nil {
		return err
	}
	ctx, cancel, explain := benchkit.Bounded(ctx, o.timeout)
	defer cancel()
	defer func() { err = explain(err) }()
	logf := benchkit.Logger(progress)

	members, err := localcluster.WithPull(benchMembers(o), o.pull)
	if err != nil {
		return err
	}
	logf("starting mco and %d %s members in %s", len(members), o.members, o.dir)
	if o.profileDir != "" {
		members[0].APIServerArgs = append(members[0].APIServerArgs, "--profiling=true")
	}
	env, err := benchkit.FreshEnv(ctx, localcluster.Options{
		Dir: o.dir, BinDir: o.binDir, Members: members, ControlPlane: true, BareMembers: !o.full(), Timing: o.timing, MCOAPIServerArgs: o.apiserverArgs,
	}, logf)
	if err != nil {
		return err
	}
	defer func() {
		logf("stopping every process started")
		env.Down()
	}()

	b, err := newBench(env, o, logf)
	if err != nil {
		return err
	}
	r, err := b.run(ctx)
	if err != nil {
		return fmt.Errorf("%w (logs in %s)", err, filepath.Join(o.dir, "logs"))
	}
	return r.print(out)
}

// benchMembers are local-up's members; with full members each gets room
// for every pod it may be given (a third of the Deployments' replicas,
// twice over for rolling updates), so that nothing stays Pending for want
// of nodes.
func benchMembers(o *options) []localcluster.MemberSpec {
	members := localcluster.DefaultMembers()
	if !o.full() {
		return members
	}
	for i := range members {
		members[i].Nodes = []localcluster.NodeSpec{{Count: 2, CPU: "64", Memory: "256Gi", Pods: fmt.Sprint(max(110, o.deployments*2))}}
	}
	return members
}
