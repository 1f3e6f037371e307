// Package component is what mco-scheduler and mco-controller-manager share
// around their loops: the client flags, the health and metrics endpoint and
// leader election on a Lease in mco-apiserver.
package component

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/http/pprof"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
	"github.com/spf13/pflag"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"
	"k8s.io/klog/v2"
)

// ClientOptions are the flags that reach mco-apiserver.
type ClientOptions struct {
	Kubeconfig string
	QPS        float32
	Burst      int
	// Compression asks mco-apiserver to gzip its answers, watch streams
	// included. Off by default: the components run next to mco-apiserver,
	// where compressing costs CPU on both ends and saves nothing.
	Compression bool
}

// AddFlags registers the client flags.
func (o *ClientOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.Kubeconfig, "kubeconfig", o.Kubeconfig, "Kubeconfig of mco-apiserver (in-cluster configuration when empty).")
	fs.Float32Var(&o.QPS, "kube-api-qps", o.QPS, "Queries per second to mco-apiserver (and to member clusters).")
	fs.IntVar(&o.Burst, "kube-api-burst", o.Burst, "Burst of queries to mco-apiserver (and to member clusters).")
	fs.BoolVar(&o.Compression, "kube-api-compression", o.Compression, "Ask mco-apiserver to gzip its answers and watch streams (member clusters are always asked). Off by default: next to mco-apiserver, compressing costs CPU on both ends and saves nothing; turn it on across a slow link.")
}

// Validate checks the flags.
func (o *ClientOptions) Validate() error {
	if o.QPS <= 0 || o.Burst <= 0 {
		return fmt.Errorf("--kube-api-qps and --kube-api-burst must be positive, got %v and %d", o.QPS, o.Burst)
	}
	return nil
}

// RESTConfig builds the client configuration, with the rate limits applied.
func (o *ClientOptions) RESTConfig(userAgent string) (*rest.Config, error) {
	var (
		cfg *rest.Config
		err error
	)
	if o.Kubeconfig == "" {
		cfg, err = rest.InClusterConfig()
	} else {
		cfg, err = clientcmd.BuildConfigFromFlags("", o.Kubeconfig)
	}
	if err != nil {
		return nil, fmt.Errorf("client configuration: %w", err)
	}
	cfg.QPS, cfg.Burst = o.QPS, o.Burst
	cfg.DisableCompression = !o.Compression
	cfg.UserAgent = userAgent
	return cfg, nil
}

// ServingOptions are the flags of the health, metrics and profiling
// endpoint.
type ServingOptions struct {
	BindAddress string
	// Profiling serves /debug/pprof/ as kube-controller-manager does with
	// --profiling.
	Profiling bool
}

// AddFlags registers --bind-address and --profiling.
func (o *ServingOptions) AddFlags(fs *pflag.FlagSet) {
	fs.StringVar(&o.BindAddress, "bind-address", o.BindAddress, "Address of /healthz, /readyz, /metrics and, with --profiling, /debug/pprof/.")
	fs.BoolVar(&o.Profiling, "profiling", o.Profiling, "Serve Go's profiles on /debug/pprof/ at --bind-address.")
}

// Serve serves /healthz, /readyz (ready while ready() is true), /metrics
// from reg and, when asked, /debug/pprof/ on o.BindAddress until ctx ends.
// It returns once listening.
func Serve(ctx context.Context, o ServingOptions, reg *prometheus.Registry, ready func() bool) (net.Addr, error) {
	listener, err := net.Listen("tcp", o.BindAddress)
	if err != nil {
		return nil, fmt.Errorf("listen on %s: %w", o.BindAddress, err)
	}
	mux := HealthMux(reg, ready)
	if o.Profiling {
		mux.HandleFunc("/debug/pprof/", pprof.Index)
		mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
		mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
		mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
		mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go func() {
		if err := srv.Serve(listener); err != nil && !errors.Is(err, http.ErrServerClosed) {
			klog.FromContext(ctx).Error(err, "Health and metrics server failed")
		}
	}()
	go func() {
		<-ctx.Done()
		_ = srv.Close()
	}()
	return listener.Addr(), nil
}

// HealthMux serves /healthz, /readyz and /metrics.
func HealthMux(reg *prometheus.Registry, ready func() bool) *http.ServeMux {
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, _ *http.Request) { _, _ = w.Write([]byte("ok")) })
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if !ready() {
			http.Error(w, "not ready: caches not synced", http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok"))
	})
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg}))
	return mux
}
