// Package app is the mco-scheduler command line: the scheduling loop
// (default) and `plan`, an offline preview.
package app

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	"k8s.io/klog/v2"

	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/scheduler"
	"github.com/mco-org/mco/pkg/version"
)

// options are the flags of the scheduling loop.
type options struct {
	kubeconfig     string
	bindAddress    string
	schedulerName  string
	workers        int
	leaderElect    bool
	leaseNamespace string
	leaseName      string
}

// NewCommand returns the mco-scheduler command.
func NewCommand(ctx context.Context) *cobra.Command {
	o := options{
		bindAddress: "127.0.0.1:10351", schedulerName: scheduler.DefaultSchedulerName, workers: 2,
		leaderElect: true, leaseNamespace: "kube-system", leaseName: "mco-scheduler",
	}
	var showVersion bool
	cmd := &cobra.Command{
		Use:   "mco-scheduler",
		Short: "Places mco's bindings on member clusters and divides their replicas",
		Long: `mco-scheduler watches ResourceBindings, ClusterResourceBindings and Clusters on
mco-apiserver and writes each binding's spec.clusters and Scheduled condition.
It serves /healthz, /readyz and /metrics on --bind-address.`,
		SilenceUsage: true,
		Args:         cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if showVersion {
				fmt.Fprintln(cmd.OutOrStdout(), "mco-scheduler", version.Get())
				return nil
			}
			return o.run(ctx)
		},
	}
	fs := cmd.Flags()
	fs.StringVar(&o.kubeconfig, "kubeconfig", o.kubeconfig, "Kubeconfig of mco-apiserver (in-cluster configuration when empty).")
	fs.StringVar(&o.bindAddress, "bind-address", o.bindAddress, "Address of /healthz, /readyz and /metrics.")
	fs.StringVar(&o.schedulerName, "scheduler-name", o.schedulerName, "Bindings whose spec.schedulerName is this are scheduled here.")
	fs.IntVar(&o.workers, "workers", o.workers, "Bindings scheduled concurrently.")
	fs.BoolVar(&o.leaderElect, "leader-elect", o.leaderElect, "Run only while holding the leader lease, so that several replicas can stand by.")
	fs.StringVar(&o.leaseNamespace, "leader-elect-resource-namespace", o.leaseNamespace, "Namespace of the leader lease.")
	fs.StringVar(&o.leaseName, "leader-elect-resource-name", o.leaseName, "Name of the leader lease.")
	fs.BoolVar(&showVersion, "version", false, "Print the version and exit.")
	cmd.AddCommand(NewPlanCommand())
	return cmd
}

func (o *options) restConfig() (*rest.Config, error) {
	if o.kubeconfig == "" {
		return rest.InClusterConfig()
	}
	return clientcmd.BuildConfigFromFlags("", o.kubeconfig)
}

func (o *options) run(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	cfg, err := o.restConfig()
	if err != nil {
		return fmt.Errorf("client configuration: %w", err)
	}
	cfg.QPS, cfg.Burst = 100, 200
	client, err := mcoclient.NewForConfig(cfg)
	if err != nil {
		return err
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m, err := metrics.NewScheduler(reg)
	if err != nil {
		return fmt.Errorf("register metrics: %w", err)
	}
	s, err := scheduler.New(client, m, o.schedulerName)
	if err != nil {
		return err
	}
	listener, err := net.Listen("tcp", o.bindAddress)
	if err != nil {
		return fmt.Errorf("listen on %s: %w", o.bindAddress, err)
	}
	srv := &http.Server{Handler: healthMux(reg, s.HasSynced), ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			logger.Error(err, "Health and metrics server failed")
		}
	}()
	defer srv.Close()
	logger.Info("Serving health and metrics", "address", listener.Addr().String())

	if !o.leaderElect {
		return s.Run(ctx, o.workers)
	}
	kube, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return err
	}
	id, _ := os.Hostname()
	id = fmt.Sprintf("%s_%d", id, os.Getpid())
	lock := &resourcelock.LeaseLock{
		LeaseMeta:  metav1.ObjectMeta{Namespace: o.leaseNamespace, Name: o.leaseName},
		Client:     kube.CoordinationV1(),
		LockConfig: resourcelock.ResourceLockConfig{Identity: id},
	}
	var runErr error
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock, ReleaseOnCancel: true, Name: o.leaseName,
		LeaseDuration: 15 * time.Second, RenewDeadline: 10 * time.Second, RetryPeriod: 2 * time.Second,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) { runErr = s.Run(ctx, o.workers) },
			OnStoppedLeading: func() { logger.Info("Leader lease lost or released", "identity", id) },
		},
	})
	return runErr
}

// healthMux serves /healthz, /readyz (caches synced) and /metrics.
func healthMux(reg *prometheus.Registry, synced func() bool) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !synced() {
			http.Error(w, "caches not synced", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	return mux
}
