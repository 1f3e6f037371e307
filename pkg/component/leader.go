package component

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/spf13/pflag"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/leaderelection"
	"k8s.io/client-go/tools/leaderelection/resourcelock"
	componentbaseconfig "k8s.io/component-base/config"
	"k8s.io/component-base/config/options"
	"k8s.io/klog/v2"
)

// LeaderElection holds component-base's leader election flags.
type LeaderElection struct {
	componentbaseconfig.LeaderElectionConfiguration
}

// NewLeaderElection returns the defaults for a component whose lease is
// kube-system/name.
func NewLeaderElection(name string) *LeaderElection {
	return &LeaderElection{componentbaseconfig.LeaderElectionConfiguration{
		LeaderElect:       true,
		LeaseDuration:     metav1.Duration{Duration: 15 * time.Second},
		RenewDeadline:     metav1.Duration{Duration: 10 * time.Second},
		RetryPeriod:       metav1.Duration{Duration: 2 * time.Second},
		ResourceLock:      resourcelock.LeasesResourceLock,
		ResourceName:      name,
		ResourceNamespace: metav1.NamespaceSystem,
	}}
}

// AddFlags registers --leader-elect and its companions.
func (l *LeaderElection) AddFlags(fs *pflag.FlagSet) {
	options.BindLeaderElectionFlags(&l.LeaderElectionConfiguration, fs)
}

// Run runs fn while holding the lease (or at once when leader election is
// off) and returns fn's error. Losing the lease ends fn's context.
func (l *LeaderElection) Run(ctx context.Context, cfg *rest.Config, fn func(context.Context) error) error {
	if !l.LeaderElect {
		return fn(ctx)
	}
	logger := klog.FromContext(ctx)
	kube, err := kubernetes.NewForConfig(rest.CopyConfig(cfg))
	if err != nil {
		return fmt.Errorf("leader election client: %w", err)
	}
	host, _ := os.Hostname()
	id := fmt.Sprintf("%s_%d", host, os.Getpid())
	lock, err := resourcelock.New(l.ResourceLock, l.ResourceNamespace, l.ResourceName,
		kube.CoreV1(), kube.CoordinationV1(), resourcelock.ResourceLockConfig{Identity: id})
	if err != nil {
		return fmt.Errorf("leader election lock: %w", err)
	}
	// fn ending (done, or failed) ends the election too, releasing the
	// lease: RunOrDie would otherwise go on renewing it with nothing run.
	parent := ctx
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu       sync.Mutex
		runErr   error
		finished bool
	)
	leaderelection.RunOrDie(ctx, leaderelection.LeaderElectionConfig{
		Lock: lock, ReleaseOnCancel: true, Name: l.ResourceName,
		LeaseDuration: l.LeaseDuration.Duration, RenewDeadline: l.RenewDeadline.Duration, RetryPeriod: l.RetryPeriod.Duration,
		Callbacks: leaderelection.LeaderCallbacks{
			OnStartedLeading: func(ctx context.Context) {
				logger.Info("Leading", "lease", l.ResourceNamespace+"/"+l.ResourceName, "identity", id)
				err := fn(ctx)
				mu.Lock()
				if err != nil {
					runErr = err
				}
				finished = true
				mu.Unlock()
				cancel()
			},
			OnStoppedLeading: func() {
				logger.Info("Leader lease lost or released", "identity", id)
				mu.Lock()
				defer mu.Unlock()
				if parent.Err() == nil && !finished && runErr == nil {
					// Lost while still meant to run: exit, so that a restart
					// stands by for the lease again with fresh caches.
					runErr = fmt.Errorf("leader lease %s/%s lost", l.ResourceNamespace, l.ResourceName)
				}
			},
		},
	})
	mu.Lock()
	defer mu.Unlock()
	return runErr
}
