// Package app is the mco-scheduler command line: the scheduling loop
// (default) and `plan`, an offline preview.
package app

import (
	"context"
	"fmt"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/component"
	"github.com/mco-org/mco/pkg/events"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/scheduler"
	"github.com/mco-org/mco/pkg/slimwire"
	"github.com/mco-org/mco/pkg/version"
	"k8s.io/client-go/kubernetes"
)

// options are the flags of the scheduling loop.
type options struct {
	client        component.ClientOptions
	leader        *component.LeaderElection
	serving       component.ServingOptions
	memory        component.MemoryOptions
	procs         component.ProcsOptions
	schedulerName string
	workers       int
	eviction      scheduler.EvictionOptions
}

// NewCommand returns the mco-scheduler command.
func NewCommand(ctx context.Context) *cobra.Command {
	o := options{
		client:  component.ClientOptions{QPS: 100, Burst: 200},
		leader:  component.NewLeaderElection("mco-scheduler"),
		serving: component.ServingOptions{BindAddress: "127.0.0.1:10351", Profiling: true}, schedulerName: scheduler.DefaultSchedulerName, workers: 2,
		eviction: scheduler.DefaultEvictionOptions(), memory: component.DefaultMemoryOptions(),
		// Light decisions: one processor runs them, and the runtime
		// stops waking idle threads for every watch event (about 15% of
		// the scheduler's CPU in make bench-propagation).
		procs: component.ProcsOptions{Max: 1},
	}
	var showVersion bool
	cmd := &cobra.Command{
		Use:   "mco-scheduler",
		Short: "Places mco's bindings on member clusters and divides their replicas",
		Long: `mco-scheduler watches ResourceBindings, ClusterResourceBindings and Clusters on
mco-apiserver and writes each binding's spec.clusters and Scheduled condition.
It serves /healthz, /readyz, /metrics and /debug/pprof/ on --bind-address.`,
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				fmt.Fprintln(cmd.OutOrStdout(), "mco-scheduler", version.Get())
				return nil
			}
			if err := o.client.Validate(); err != nil {
				return err
			}
			if err := o.procs.Validate(); err != nil {
				return err
			}
			if err := o.memory.Validate(); err != nil {
				return err
			}
			if o.eviction.Rate < 0 || o.eviction.SecondaryRate < 0 || o.eviction.UnhealthyThreshold < 0 || o.eviction.UnhealthyThreshold > 1 {
				return fmt.Errorf("--resource-eviction-rate and --secondary-eviction-rate must not be negative and --unhealthy-cluster-threshold must be within 0 and 1")
			}
			return o.run(ctx)
		},
	}
	fs := cmd.Flags()
	o.client.AddFlags(fs)
	o.leader.AddFlags(fs)
	o.serving.AddFlags(fs)
	o.memory.AddFlags(fs)
	o.procs.AddFlags(fs)
	fs.StringVar(&o.schedulerName, "scheduler-name", o.schedulerName, "Bindings whose spec.schedulerName is this are scheduled here.")
	fs.IntVar(&o.workers, "workers", o.workers, "Bindings scheduled concurrently.")
	fs.Float32Var(&o.eviction.Rate, "resource-eviction-rate", o.eviction.Rate,
		"Bindings moved per second off clusters with a NoExecute taint they do not tolerate.")
	fs.Float32Var(&o.eviction.SecondaryRate, "secondary-eviction-rate", o.eviction.SecondaryRate,
		"Bindings moved per second when more than --unhealthy-cluster-threshold of the clusters are not Ready; 0 stops evictions then.")
	fs.Float64Var(&o.eviction.UnhealthyThreshold, "unhealthy-cluster-threshold", o.eviction.UnhealthyThreshold,
		"Share of clusters not Ready (0-1) above which --secondary-eviction-rate applies. With every cluster unhealthy nothing is moved.")
	fs.BoolVar(&showVersion, "version", false, "Print the version and exit.")
	cmd.AddCommand(NewPlanCommand())
	return cmd
}

func (o *options) run(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	if err := o.procs.Apply(); err != nil {
		return err
	}
	if err := o.memory.Apply(); err != nil {
		return err
	}
	cfg, err := o.client.RESTConfig("mco-scheduler")
	if err != nil {
		return err
	}
	cfg = slimwire.ForComponents(cfg) // answers decoded without managedFields
	client, err := mcoclient.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m, err := metrics.NewScheduler(reg)
	if err != nil {
		return fmt.Errorf("register metrics: %w", err)
	}
	kube, err := kubernetes.NewForConfig(kubeconfig.Protobuf(cfg))
	if err != nil {
		return err
	}
	s, err := scheduler.New(client, m, o.schedulerName, events.NewRecorder(ctx, kube, "mco-scheduler"), o.eviction)
	if err != nil {
		return err
	}
	addr, err := component.Serve(ctx, o.serving, reg, s.HasSynced)
	if err != nil {
		return err
	}
	logger.Info("Serving health and metrics", "address", addr.String())
	return o.leader.Run(ctx, cfg, func(ctx context.Context) error { return s.Run(ctx, o.workers) })
}
