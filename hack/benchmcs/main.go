// Command benchmcs measures what one endpoint change costs when a
// MultiClusterService carries a Service's endpoints across clusters: bare
// members, a Service with 1,000 endpoints spread over 3 providers (written
// into the providers' EndpointSlices by the benchmark, 100 a slice, as
// kube-controller-manager would), dispatched to 3 consumers. It then
// flips one endpoint's readiness at a time and reports, per change, the
// writes to mco-apiserver and to the consumers, and the time until every
// consumer holds it. `make bench-mcs` runs it; the last line of its output
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

func main() { benchkit.Main("benchmcs", run) }

// options are the command's flags.
type options struct {
	dir, binDir          string
	endpoints            int
	providers, consumers int
	changes              int
	timeout              time.Duration
}

func parseFlags(args []string) (*options, error) {
	o := &options{}
	fs := flag.NewFlagSet("benchmcs", flag.ContinueOnError)
	fs.StringVar(&o.dir, "dir", "_output/bench-mcs", "state, data and logs (emptied at start; logs stay after)")
	fs.StringVar(&o.binDir, "bin-dir", "_output/bin", "mco and member binaries")
	fs.IntVar(&o.endpoints, "endpoints", 1000, "the Service's endpoints, over every provider")
	fs.IntVar(&o.providers, "providers", 3, "provider members")
	fs.IntVar(&o.consumers, "consumers", 3, "consumer members")
	fs.IntVar(&o.changes, "changes", 30, "endpoint changes measured, one at a time")
	fs.DurationVar(&o.timeout, "timeout", 15*time.Minute, "give up after this long in all")
	if err := fs.Parse(args); err != nil {
		return nil, err
	}
	switch {
	case fs.NArg() != 0:
		return nil, fmt.Errorf("unexpected arguments %v", fs.Args())
	case o.endpoints < o.providers || o.providers < 1 || o.consumers < 1 || o.changes < 1:
		return nil, fmt.Errorf("-providers, -consumers and -changes must be positive, -endpoints at least -providers")
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

	logf("starting mco and %d bare members in %s", o.providers+o.consumers, o.dir)
	var members []localcluster.MemberSpec
	for _, name := range append(o.providerNames(), o.consumerNames()...) {
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

func (o *options) providerNames() []string { return names("provider", o.providers) }
func (o *options) consumerNames() []string { return names("consumer", o.consumers) }

func names(prefix string, n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("%s%d", prefix, i+1)
	}
	return out
}
