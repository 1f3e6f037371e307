// Command benchrollout measures what the rollout controller costs a
// control plane that holds many staged templates while one of them rolls
// out: three bare members, N ConfigMaps duplicated to all three and
// governed by one RolloutPolicy (N bindings and N Rollouts), first at rest,
// then while one ConfigMap's change goes wave by wave. It reports each
// process's CPU, the rollout controller's queue adds and mco's writes in
// both windows. `make bench-rollout` runs it; the last line of its output
// is one JSON object.
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

func main() { benchkit.Main("benchrollout", run) }

// options are the command's flags.
type options struct {
	dir, binDir string
	configMaps  int
	workers     int
	settle      time.Duration
	rest        time.Duration
	active      time.Duration
	healthyFor  time.Duration
	timeout     time.Duration
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("benchrollout", flag.ContinueOnError)
	fs.StringVar(&o.dir, "dir", "_output/bench-rollout", "state, data and logs (emptied at start; logs stay after)")
	fs.StringVar(&o.binDir, "bin-dir", "_output/bin", "mco and member binaries")
	fs.IntVar(&o.configMaps, "configmaps", 1000, "ConfigMaps, each a binding and a Rollout")
	fs.IntVar(&o.workers, "workers", 16, "concurrent creates")
	fs.DurationVar(&o.settle, "settle", 3*time.Minute, "how long mco may go on writing after every rollout is complete before the run fails")
	fs.DurationVar(&o.rest, "rest", 30*time.Second, "the window at rest")
	fs.DurationVar(&o.active, "active", 60*time.Second, "the window while one rollout goes through its waves")
	fs.DurationVar(&o.healthyFor, "healthy-for", 10*time.Second, "how long each of the first two waves stays healthy before the next starts")
	fs.DurationVar(&o.timeout, "timeout", 30*time.Minute, "give up after this long in all")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() != 0:
		return nil, fmt.Errorf("unexpected arguments %v", fs.Args())
	case o.configMaps < 1 || o.workers < 1:
		return nil, fmt.Errorf("-configmaps and -workers must be positive")
	case o.rest <= 0 || o.active <= 0 || o.timeout <= 0 || o.settle <= 0 || o.healthyFor < 0:
		return nil, fmt.Errorf("-rest, -active, -settle and -timeout must be positive, -healthy-for not negative")
	}
	var err error
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

	logf("starting mco and %d bare members in %s", len(memberNames), o.dir)
	var members []localcluster.MemberSpec
	for _, name := range memberNames {
		members = append(members, localcluster.MemberSpec{Name: name,
			Nodes: []localcluster.NodeSpec{{Count: 1, CPU: "64", Memory: "256Gi", Pods: "10000"}}})
	}
	env, err := benchkit.FreshEnv(ctx, localcluster.Options{
		Dir: o.dir, BinDir: o.binDir, Members: members, ControlPlane: true, BareMembers: true, StaticNodes: true,
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
