// Command benchaddons measures what add-ons cost the control plane: N
// add-ons of about 30 objects each placed on M bare members, each add-on
// with two distinct value sets (by a member label), from a chart
// repository on loopback. It reports the time until every add-on is
// Healthy everywhere, the renders done (which must equal the distinct
// (add-on, values, capabilities) sets, not the clusters), the
// controller-manager's CPU and mco's writes per (add-on, cluster), and the
// peak RSS of mco's processes. `make bench-addons` runs it; the last line
// of its output is one JSON object.
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

func main() { benchkit.Main("benchaddons", run) }

// options are the command's flags.
type options struct {
	dir, binDir string
	addons      int
	objects     int
	members     int
	timeout     time.Duration
	profile     string
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("benchaddons", flag.ContinueOnError)
	fs.StringVar(&o.dir, "dir", "_output/bench-addons", "state, data and logs (emptied at start; logs stay after)")
	fs.StringVar(&o.binDir, "bin-dir", "_output/bin", "mco and member binaries")
	fs.IntVar(&o.addons, "addons", 10, "add-ons")
	fs.IntVar(&o.objects, "objects", 30, "objects each add-on's chart renders")
	fs.IntVar(&o.members, "members", 20, "bare members")
	fs.DurationVar(&o.timeout, "timeout", 20*time.Minute, "give up after this long in all")
	fs.StringVar(&o.profile, "cpuprofile", "", "where to write mco-controller-manager's CPU profile of the 45s from the add-ons' creation (default: controller-manager.cpu.pprof in -dir)")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() != 0:
		return nil, fmt.Errorf("unexpected arguments %v", fs.Args())
	case o.addons < 1 || o.objects < 5 || o.members < 2:
		return nil, fmt.Errorf("-addons must be positive, -objects at least 5, -members at least 2")
	case o.timeout <= 0:
		return nil, fmt.Errorf("-timeout must be positive")
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

	logf("starting mco and %d bare members in %s", o.members, o.dir)
	var members []localcluster.MemberSpec
	for i := 0; i < o.members; i++ {
		members = append(members, localcluster.MemberSpec{Name: fmt.Sprintf("member%d", i+1), Region: "bench",
			Labels: map[string]string{groupLabel: groups[i%len(groups)]},
			Nodes:  []localcluster.NodeSpec{{Count: 1, CPU: "64", Memory: "256Gi", Pods: "10000"}}})
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
	defer b.repo.Close()
	r, err := b.run(ctx)
	if err != nil {
		return fmt.Errorf("%w (logs in %s)", err, filepath.Join(o.dir, "logs"))
	}
	return r.print(out)
}
