package agent

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/component"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/version"
)

// options are mco-agent's flags.
type options struct {
	identity       Identity
	memberConfig   string
	mcoConfig      string
	mcoSecret      string
	qps            float32
	burst          int
	leader         *component.LeaderElection
	serving        component.ServingOptions
	memory         component.MemoryOptions
	workers        int
	statusInterval time.Duration
	health         shared.ClusterHealth
	coalesceWindow time.Duration
	retryInitial   time.Duration
	retryMax       time.Duration
}

// NewCommand returns the mco-agent command.
func NewCommand(ctx context.Context) *cobra.Command {
	o := &options{
		qps: 40, burst: 60,
		leader:         component.NewLeaderElection(componentName),
		serving:        component.ServingOptions{BindAddress: "127.0.0.1:10359", Profiling: true},
		memory:         component.DefaultMemoryOptions(),
		workers:        5,
		statusInterval: 10 * time.Second,
		health:         shared.ClusterHealth{FailureThreshold: 30 * time.Second, SuccessThreshold: 30 * time.Second, MonitorGracePeriod: 40 * time.Second},
		coalesceWindow: 10 * time.Second,
		retryInitial:   5 * time.Second,
		retryMax:       5 * time.Minute,
	}
	var showVersion bool
	cmd := &cobra.Command{
		Use:   "mco-agent",
		Short: "Serves a member cluster mco cannot reach (syncMode Pull) from inside it",
		Long: `mco-agent runs in a member cluster that mco cannot reach. It registers the member as a
Cluster in Pull mode (or takes over an unclaimed Pull Cluster of its name), applies the Works of
its execution namespace to the member as mco-controller-manager does for Push clusters, and
writes back their status, the Cluster's status and the Cluster's Lease.

While mco-apiserver does not answer it stops its controllers and changes nothing in the member;
it tries again after --mco-retry-initial, doubling up to --mco-retry-max, and once mco answers it
starts over from the Works as they are then. It stops when mco refuses its credential or deletes
its Cluster. Leader election runs in the member. It serves /healthz, /readyz (ready while
connected), /metrics and /debug/pprof/ on --bind-address.`,
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				fmt.Fprintln(cmd.OutOrStdout(), componentName, version.Get())
				return nil
			}
			if err := o.validate(); err != nil {
				return err
			}
			return o.run(ctx)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.identity.Name, "cluster-name", "", "Name of the Cluster on mco (required).")
	fs.StringVar(&o.identity.Provider, "cluster-provider", "", "Provider recorded on a Cluster the agent registers.")
	fs.StringVar(&o.identity.Region, "cluster-region", "", "Region recorded on a Cluster the agent registers.")
	fs.StringSliceVar(&o.identity.Zones, "cluster-zones", nil, "Zones recorded on a Cluster the agent registers.")
	fs.StringToStringVar(&o.identity.Labels, "cluster-labels", nil, "Labels set on the Cluster (key=value,...).")
	fs.StringVar(&o.memberConfig, "kubeconfig", "", "Kubeconfig of the member cluster (in-cluster configuration when empty).")
	fs.StringVar(&o.mcoConfig, "mco-kubeconfig", "", "Kubeconfig of mco-apiserver holding the agent's credential; the agent writes its renewed token back to it.")
	fs.StringVar(&o.mcoSecret, "mco-kubeconfig-secret", "", "NAMESPACE/NAME of a Secret in the member whose \""+KubeconfigKey+"\" key holds the kubeconfig of mco-apiserver with the agent's credential (what kubectl mco register writes), instead of --mco-kubeconfig.")
	fs.Float32Var(&o.qps, "kube-api-qps", o.qps, "Queries per second to mco-apiserver and to the member.")
	fs.IntVar(&o.burst, "kube-api-burst", o.burst, "Burst of queries to mco-apiserver and to the member.")
	o.leader.AddFlags(fs)
	o.serving.AddFlags(fs)
	o.memory.AddFlags(fs)
	fs.IntVar(&o.workers, "concurrent-syncs", o.workers, "Workers of the work status controller.")
	fs.DurationVar(&o.statusInterval, "cluster-status-update-frequency", o.statusInterval, "How often the member's health and resources are collected, the Cluster's Lease renewed and mco's reachability checked.")
	fs.DurationVar(&o.health.FailureThreshold, "cluster-failure-threshold", o.health.FailureThreshold, "How long the member must keep failing its health probe before its Ready condition turns False.")
	fs.DurationVar(&o.health.SuccessThreshold, "cluster-success-threshold", o.health.SuccessThreshold, "How long the member must keep passing its health probe before its Ready condition turns True again.")
	fs.DurationVar(&o.health.MonitorGracePeriod, "cluster-lease-duration", o.health.MonitorGracePeriod, "Duration recorded on the Cluster's Lease.")
	fs.DurationVar(&o.coalesceWindow, "status-coalesce-window", o.coalesceWindow, "As mco-controller-manager's flag of that name, for the Works' status.")
	fs.DurationVar(&o.retryInitial, "mco-retry-initial", o.retryInitial, "First wait before trying mco-apiserver again once it stops answering; each failure doubles it.")
	fs.DurationVar(&o.retryMax, "mco-retry-max", o.retryMax, "Longest wait between tries while mco-apiserver does not answer.")
	fs.BoolVar(&showVersion, "version", false, "Print the version and exit.")
	return cmd
}

func (o *options) validate() error {
	switch {
	case o.identity.Name == "":
		return fmt.Errorf("--cluster-name is required")
	case (o.mcoConfig == "") == (o.mcoSecret == ""):
		return fmt.Errorf("exactly one of --mco-kubeconfig and --mco-kubeconfig-secret is required")
	case o.qps <= 0 || o.burst <= 0:
		return fmt.Errorf("--kube-api-qps and --kube-api-burst must be positive, got %v and %d", o.qps, o.burst)
	case o.workers < 1:
		return fmt.Errorf("--concurrent-syncs must be at least 1, got %d", o.workers)
	case o.statusInterval < time.Second:
		return fmt.Errorf("--cluster-status-update-frequency must be at least 1s, got %s", o.statusInterval)
	case o.health.MonitorGracePeriod <= o.statusInterval:
		return fmt.Errorf("--cluster-lease-duration (%s) must be longer than --cluster-status-update-frequency (%s)", o.health.MonitorGracePeriod, o.statusInterval)
	case o.health.FailureThreshold < 0 || o.health.SuccessThreshold < 0:
		return fmt.Errorf("--cluster-failure-threshold and --cluster-success-threshold must not be negative")
	case o.coalesceWindow < 0 || o.coalesceWindow > time.Minute:
		return fmt.Errorf("--status-coalesce-window must be between 0 and 1m, got %s", o.coalesceWindow)
	case o.retryInitial <= 0 || o.retryMax < o.retryInitial:
		return fmt.Errorf("--mco-retry-initial must be positive and at most --mco-retry-max, got %s and %s", o.retryInitial, o.retryMax)
	}
	return o.memory.Validate()
}

func (o *options) run(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	if err := o.memory.Apply(); err != nil {
		return err
	}
	memberCfg, err := o.restConfig(o.memberConfig)
	if err != nil {
		return fmt.Errorf("member: %w", err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m, err := metrics.NewControllerManager(reg, componentName)
	if err != nil {
		return fmt.Errorf("register metrics: %w", err)
	}
	own, err := metrics.NewAgent(reg)
	if err != nil {
		return fmt.Errorf("register metrics: %w", err)
	}
	if err := metrics.RegisterWorkqueue(reg); err != nil {
		return fmt.Errorf("register work queue metrics: %w", err)
	}
	var ready atomic.Bool
	addr, err := component.Serve(ctx, o.serving, reg, ready.Load)
	if err != nil {
		return err
	}
	logger.Info("Serving health and metrics", "address", addr.String(), "cluster", o.identity.Name)
	a, err := New(ctx, Config{Identity: o.identity, Member: memberCfg, CredentialFile: o.mcoConfig, CredentialSecret: o.mcoSecret,
		QPS: o.qps, Burst: o.burst, Workers: o.workers, StatusInterval: o.statusInterval,
		Health: o.health, CoalesceWindow: o.coalesceWindow, RetryInitial: o.retryInitial, RetryMax: o.retryMax}, m, own, &ready)
	if err != nil {
		return err
	}
	// The lease is the member's: the agent must run without mco. Losing
	// it (the member's kube-apiserver away) stops the controllers; the
	// agent then stands by for it again, with fresh caches once it leads:
	// in a member that is down, nothing would restart it.
	for {
		err := o.leader.Run(ctx, memberCfg, a.Run)
		var refused *claimError
		if ctx.Err() != nil || errors.Is(err, errRefused) || errors.Is(err, errGone) || errors.As(err, &refused) {
			return err
		}
		logger.Info("Leader lease in the member lost; standing by for it again", "reason", fmt.Sprint(err))
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(o.leader.RetryPeriod.Duration):
		}
	}
}

// restConfig reads the member's kubeconfig (in-cluster configuration when
// path is empty) with the agent's rate limits.
func (o *options) restConfig(path string) (*rest.Config, error) {
	var (
		cfg *rest.Config
		err error
	)
	if path == "" {
		cfg, err = rest.InClusterConfig()
	} else {
		cfg, err = clientcmd.BuildConfigFromFlags("", path)
	}
	if err != nil {
		return nil, fmt.Errorf("client configuration: %w", err)
	}
	cfg.QPS, cfg.Burst, cfg.UserAgent = o.qps, o.burst, componentName
	return cfg, nil
}
