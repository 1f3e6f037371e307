// Command benchscale measures mco at the size of a real federation on one
// machine: ten bare members (a kube-apiserver each, one shared etcd, nodes
// that are objects only), ten thousand Deployments divided over three of
// the ten by a spread constraint (so that mco's scheduler chooses which)
// and a thousand ConfigMaps duplicated to all ten, then the deletion of
// their namespace. It reports the time to propagate and to delete, the peak
// memory of mco's processes, writes and CPU per object. `make bench-scale`
// runs it; the last line of its output is one JSON object.
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

func main() { benchkit.Main("benchscale", run) }

// options are the command's flags.
type options struct {
	dir, binDir   string
	members       int
	spread        int
	deployments   int
	configMaps    int
	workers       int
	settle        time.Duration
	timeout       time.Duration
	deleteTimeout time.Duration
	namespace     string
	profiles      string
	cpuProfile    time.Duration
	externalEtcd  bool
	profileEvery  time.Duration
	timing        *localcluster.Timing
	apiserverArgs []string // extra flags of mco-apiserver (-apiserver-arg)
	// componentArgs are extra flags of mco-controller-manager and
	// mco-scheduler (-controller-manager-arg, -scheduler-arg).
	componentArgs map[string][]string
}

// maxMembers bounds -members: the tracker keeps a member set as a bit mask.
const maxMembers = 64

func parseFlags(args []string) (*options, error) {
	o := &options{namespace: "scale"}
	fs := flag.NewFlagSet("benchscale", flag.ContinueOnError)
	fs.StringVar(&o.dir, "dir", "_output/bench-scale", "state, data and logs (emptied at start; logs stay after)")
	fs.StringVar(&o.binDir, "bin-dir", "_output/bin", "mco and member binaries")
	fs.IntVar(&o.members, "members", 10, "bare member clusters")
	fs.IntVar(&o.spread, "spread", 3, "members each Deployment is divided over (a spread constraint's min and max groups)")
	fs.IntVar(&o.deployments, "deployments", 10000, "Deployments of 3 replicas, divided over -spread members")
	fs.IntVar(&o.configMaps, "configmaps", 1000, "ConfigMaps duplicated to every member")
	fs.IntVar(&o.workers, "workers", 16, "concurrent creates")
	fs.DurationVar(&o.settle, "settle", 10*time.Second, "quiet time after the propagation before counting writes")
	fs.DurationVar(&o.deleteTimeout, "delete-timeout", 30*time.Minute, "how long the deletion of the namespace may take before it is reported as not done")
	fs.DurationVar(&o.timeout, "timeout", 100*time.Minute, "give up after this long in all")
	fs.StringVar(&o.profiles, "heap-profiles", "", "directory to save a heap profile of each mco process into once the objects are propagated (none when empty)")
	fs.DurationVar(&o.cpuProfile, "cpu-profile", 60*time.Second, "length of the CPU profiles of mco's processes taken from the first create (into DIR/profiles); encoding and decoding CPU is read from them (0: none)")
	fs.DurationVar(&o.profileEvery, "heap-profile-every", 0, "with -heap-profiles, also save heap profiles every this long from the first create to the end, into DIR/every/<seconds>s (0: none)")
	fs.BoolVar(&o.externalEtcd, "external-etcd", false, "run mco-apiserver on an etcd process of its own instead of the embedded one")
	timing := benchkit.TimingFlag(fs)
	apiserverArgs := benchkit.ArgsFlag(fs, "apiserver-arg", "an extra flag of mco-apiserver, e.g. --feature-gates=ListFromCacheSnapshot=false or --memory-limit=950Mi (repeatable)")
	cmArgs := benchkit.ArgsFlag(fs, "controller-manager-arg", "an extra flag of mco-controller-manager, e.g. --memory-limit=700Mi (repeatable)")
	schedArgs := benchkit.ArgsFlag(fs, "scheduler-arg", "an extra flag of mco-scheduler, e.g. --memory-limit=120Mi (repeatable)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() != 0:
		return nil, fmt.Errorf("unexpected arguments %v", fs.Args())
	case o.members < 1 || o.members > maxMembers:
		return nil, fmt.Errorf("-members is between 1 and %d, not %d", maxMembers, o.members)
	case o.spread < 1 || o.spread > o.members:
		return nil, fmt.Errorf("-spread is between 1 and -members (%d), not %d", o.members, o.spread)
	case o.deployments < 0 || o.configMaps < 0 || o.deployments+o.configMaps == 0:
		return nil, fmt.Errorf("-deployments and -configmaps are not negative, and not both 0")
	case o.workers < 1 || o.timeout <= 0 || o.deleteTimeout <= 0:
		return nil, fmt.Errorf("-workers, -timeout and -delete-timeout must be positive")
	}
	var err error
	if o.timing, err = timing(); err != nil {
		return nil, err
	}
	o.apiserverArgs = *apiserverArgs
	o.componentArgs = map[string][]string{"mco-controller-manager": *cmArgs, "mco-scheduler": *schedArgs}
	if o.dir, err = filepath.Abs(o.dir); err != nil {
		return nil, err
	}
	if o.binDir, err = filepath.Abs(o.binDir); err != nil {
		return nil, err
	}
	if o.profiles != "" {
		if o.profiles, err = filepath.Abs(o.profiles); err != nil {
			return nil, err
		}
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

	logf("starting mco and %d bare members in %s", o.members, o.dir)
	env, err := benchkit.FreshEnv(ctx, localcluster.Options{
		Dir: o.dir, BinDir: o.binDir, Members: scaleMembers(o.members), ControlPlane: true,
		BareMembers: true, StaticNodes: true, ExternalEtcd: o.externalEtcd, Timing: o.timing, MCOAPIServerArgs: o.apiserverArgs,
		MCOComponentArgs: o.componentArgs,
	}, logf)
	if err != nil {
		return err
	}
	defer func() {
		logf("stopping every process started")
		env.Down()
	}()

	s, err := newScale(env, o, logf)
	if err != nil {
		return err
	}
	r, err := s.run(ctx)
	if err != nil {
		return fmt.Errorf("%w (logs in %s)", err, filepath.Join(o.dir, "logs"))
	}
	return r.print(out)
}
