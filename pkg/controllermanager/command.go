// Package controllermanager is the mco-controller-manager command: the
// controllers of the propagation path under one leader lease, with health
// and metrics on --bind-address.
package controllermanager

import (
	"context"
	"fmt"
	"regexp"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/spf13/cobra"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/addon/chart"
	"github.com/mco-org/mco/pkg/component"
	"github.com/mco-org/mco/pkg/controllers/namespacesync"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/controllers/taintpolicy"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/version"
)

// options are mco-controller-manager's flags.
type options struct {
	client         component.ClientOptions
	leader         *component.LeaderElection
	serving        component.ServingOptions
	memory         component.MemoryOptions
	controllers    []string
	workers        int
	statusInterval time.Duration
	health         shared.ClusterHealth
	evictionGrace  time.Duration
	// coalesceWindow is --status-coalesce-window.
	coalesceWindow time.Duration
	// skippedNamespaces is --skipped-propagating-namespaces; validate
	// compiles it into skipped.
	skippedNamespaces []string
	skipped           []*regexp.Regexp
	// createDefaultTaintPolicy creates mco-default-failover once.
	createDefaultTaintPolicy bool
	// addonAllowLinkLocal, addonMaxChart tune chart fetches.
	addonAllowLinkLocal bool
	addonMaxChart       int64
	// addonMetrics are registered with the others, for every term.
	addonMetrics *metrics.Addons
}

// NewCommand returns the mco-controller-manager command.
func NewCommand(ctx context.Context) *cobra.Command {
	o := &options{
		client:         component.ClientOptions{QPS: 40, Burst: 60},
		leader:         component.NewLeaderElection("mco-controller-manager"),
		serving:        component.ServingOptions{BindAddress: "127.0.0.1:10357", Profiling: true},
		memory:         component.DefaultMemoryOptions(),
		controllers:    []string{"*"},
		workers:        5,
		statusInterval: 10 * time.Second,
		health: shared.ClusterHealth{FailureThreshold: 30 * time.Second, SuccessThreshold: 30 * time.Second,
			MonitorPeriod: 5 * time.Second, MonitorGracePeriod: 40 * time.Second, StartupGracePeriod: time.Minute},
		evictionGrace:  10 * time.Minute,
		coalesceWindow: 10 * time.Second,
	}
	var showVersion bool
	cmd := &cobra.Command{
		Use:   "mco-controller-manager",
		Short: "Propagates resource templates from mco to member clusters and brings their status back",
		Long: `mco-controller-manager runs mco's controllers against mco-apiserver: detector (templates
to bindings), binding (bindings to Works), execution (Works to member clusters), workStatus and
bindingStatus (member status back to Works, bindings and templates), cluster and clusterStatus
(execution spaces, member health), taintPolicy (ClusterTaintPolicy taints on Clusters),
namespace (namespaces to every member), and hpaScaleTargetMarker and deploymentReplicasSyncer
(a propagated HorizontalPodAutoscaler's members own its target's replicas; on by default,
unlike Karmada: --controllers=*,-hpaScaleTargetMarker,-deploymentReplicasSyncer turns them off).
It serves /healthz, /readyz, /metrics
and /debug/pprof/ on --bind-address.`,
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				fmt.Fprintln(cmd.OutOrStdout(), "mco-controller-manager", version.Get())
				return nil
			}
			names, err := o.validate()
			if err != nil {
				return err
			}
			return o.run(ctx, names)
		},
	}
	fs := cmd.Flags()
	o.client.AddFlags(fs)
	o.leader.AddFlags(fs)
	o.serving.AddFlags(fs)
	o.memory.AddFlags(fs)
	fs.StringSliceVar(&o.controllers, "controllers", o.controllers, "Controllers to run: '*' for all, 'name' to enable one, '-name' to disable one. Known: "+fmt.Sprint(controllerNames())+".")
	fs.IntVar(&o.workers, "concurrent-syncs", o.workers, "Workers per controller.")
	fs.DurationVar(&o.statusInterval, "cluster-status-update-frequency", o.statusInterval, "How often each member cluster's health and resources are collected.")
	fs.DurationVar(&o.health.FailureThreshold, "cluster-failure-threshold", o.health.FailureThreshold, "How long a member must keep failing its health probe before its Ready condition turns False.")
	fs.DurationVar(&o.health.SuccessThreshold, "cluster-success-threshold", o.health.SuccessThreshold, "How long a member must keep passing its health probe before its Ready condition turns True again.")
	fs.DurationVar(&o.health.MonitorPeriod, "cluster-monitor-period", o.health.MonitorPeriod, "How often the cluster controller checks that each Cluster's status is being renewed.")
	fs.DurationVar(&o.health.MonitorGracePeriod, "cluster-monitor-grace-period", o.health.MonitorGracePeriod, "How long a Cluster's status may go unrenewed before its Ready condition turns Unknown.")
	fs.DurationVar(&o.health.StartupGracePeriod, "cluster-startup-grace-period", o.health.StartupGracePeriod, "Grace period instead of --cluster-monitor-grace-period for a Cluster just created or just after this process started.")
	fs.DurationVar(&o.evictionGrace, "graceful-eviction-timeout", o.evictionGrace, "Grace period of an eviction task that sets none: after it, a condition on the binding says why the old copy still stays (it stays until the new placement runs everything).")
	fs.DurationVar(&o.coalesceWindow, "status-coalesce-window", o.coalesceWindow, "How long the status changes of a workload still on its way in a member (applied, not yet healthy) are gathered into one write of its Work's, binding's and template's status. Outcomes (healthy everywhere, or failed) are written at once. A workload that stays on its way has the window doubled after each write, up to six times this; a change that only rewords a member's own conditions waits up to thirty times this for the next write. 0 writes every change.")
	fs.StringSliceVar(&o.skippedNamespaces, "skipped-propagating-namespaces", nil, "Comma-separated regular expressions of namespaces the namespace controller does not copy to member clusters; each must match the whole name. default, kube-*, karmada-system, karmada-cluster and karmada-es-* are always skipped.")
	fs.BoolVar(&o.createDefaultTaintPolicy, "create-default-taint-policy", true, "Create the ClusterTaintPolicy "+taintpolicy.DefaultPolicyName+" (NoExecute cluster.karmada.io/not-ready on Clusters whose Ready is False or Unknown, removed when Ready is True) when the leader starts, unless it was created before: a policy changed or deleted by a user is left so. The creation is recorded in ConfigMap "+taintpolicy.RecordNamespace+"/"+taintpolicy.RecordName+".")
	fs.BoolVar(&o.addonAllowLinkLocal, "addon-allow-link-local", false, "Let add-on chart fetches reach link-local addresses (169.254.0.0/16, fe80::/10), where clouds serve instance metadata. Loopback and private addresses are always allowed.")
	fs.Int64Var(&o.addonMaxChart, "addon-max-chart-size", chart.DefaultMaxArchive, "Largest chart archive, in bytes, an add-on may fetch; a larger one fails the add-on with a message that says so.")
	fs.BoolVar(&showVersion, "version", false, "Print the version and exit.")
	return cmd
}

func (o *options) validate() ([]string, error) {
	if err := o.client.Validate(); err != nil {
		return nil, err
	}
	if err := o.memory.Validate(); err != nil {
		return nil, err
	}
	if o.workers < 1 {
		return nil, fmt.Errorf("--concurrent-syncs must be at least 1, got %d", o.workers)
	}
	for flag, d := range map[string]time.Duration{"cluster-failure-threshold": o.health.FailureThreshold, "cluster-success-threshold": o.health.SuccessThreshold,
		"cluster-monitor-period": o.health.MonitorPeriod, "cluster-monitor-grace-period": o.health.MonitorGracePeriod, "cluster-startup-grace-period": o.health.StartupGracePeriod} {
		if d < 0 || (d == 0 && flag != "cluster-failure-threshold" && flag != "cluster-success-threshold") {
			return nil, fmt.Errorf("--%s must be positive, got %s", flag, d)
		}
	}
	if o.health.MonitorGracePeriod <= o.statusInterval {
		return nil, fmt.Errorf("--cluster-monitor-grace-period (%s) must be longer than --cluster-status-update-frequency (%s)", o.health.MonitorGracePeriod, o.statusInterval)
	}
	if o.coalesceWindow < 0 || o.coalesceWindow > time.Minute {
		return nil, fmt.Errorf("--status-coalesce-window must be between 0 and 1m, got %s", o.coalesceWindow)
	}
	if o.statusInterval < time.Second {
		return nil, fmt.Errorf("--cluster-status-update-frequency must be at least 1s, got %s", o.statusInterval)
	}
	skipped, err := namespacesync.CompileSkipped(o.skippedNamespaces)
	if err != nil {
		return nil, err
	}
	o.skipped = skipped
	return enabled(o.controllers)
}

func (o *options) run(ctx context.Context, names []string) error {
	logger := klog.FromContext(ctx)
	if err := o.memory.Apply(); err != nil {
		return err
	}
	cfg, err := o.client.RESTConfig("mco-controller-manager")
	if err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m, err := metrics.NewControllerManager(reg, "mco-controller-manager")
	if err != nil {
		return fmt.Errorf("register metrics: %w", err)
	}
	if o.addonMetrics, err = metrics.NewAddons(reg); err != nil {
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
	logger.Info("Serving health and metrics", "address", addr.String(), "controllers", names)
	return o.leader.Run(ctx, cfg, func(ctx context.Context) error {
		return runControllers(ctx, cfg, o, names, m, &ready)
	})
}
