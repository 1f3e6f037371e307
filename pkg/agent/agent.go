// Package agent is mco-agent: it runs in a member cluster that mco cannot
// reach (syncMode Pull), registers it as a Cluster, applies the Works of
// its execution namespace with the same controllers mco-controller-manager
// uses for Push clusters, and reports their status, the Cluster's status
// and its Lease. While mco-apiserver is away it stops its controllers and
// changes nothing in the member; it tries again with exponential backoff
// and, once back, starts over from the Works as they are then.
package agent

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"

	"github.com/mco-org/mco/pkg/controllers/clusterstatus"
	"github.com/mco-org/mco/pkg/controllers/endpointslicecollect"
	"github.com/mco-org/mco/pkg/controllers/execution"
	"github.com/mco-org/mco/pkg/controllers/shared"
	"github.com/mco-org/mco/pkg/controllers/workstatus"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/kubeconfig"
	"github.com/mco-org/mco/pkg/metrics"
	"github.com/mco-org/mco/pkg/slimwire"
)

// Config is what the agent runs with.
type Config struct {
	Identity Identity
	// Member reaches the agent's own cluster.
	Member *rest.Config
	// CredentialFile or CredentialSecret (NAMESPACE/NAME of a Secret in
	// the member) holds the agent's kubeconfig for mco; the agent writes
	// its renewed token back there.
	CredentialFile, CredentialSecret string
	// QPS and Burst limit the requests to mco.
	QPS     float32
	Burst   int
	Workers int
	// StatusInterval is how often the member is probed, its status and
	// Lease written, and mco's reachability checked.
	StatusInterval time.Duration
	// Health: thresholds of Ready changes; MonitorGracePeriod is the
	// Lease's duration.
	Health         shared.ClusterHealth
	CoalesceWindow time.Duration
	// RetryInitial and RetryMax bound the backoff while mco is away.
	RetryInitial, RetryMax time.Duration
}

// lostAfter is how many reachability checks in a row must fail before the
// agent stops its controllers.
const lostAfter = 2

// checkTimeout bounds one reachability check.
const checkTimeout = 5 * time.Second

// errRefused ends the agent: mco refuses its credential.
var errRefused = errors.New("mco-apiserver refused the agent's credential (401 Unauthorized): it was revoked or has expired; register the cluster again (kubectl mco register)")

// Agent is a running mco-agent.
type Agent struct {
	cfg     Config
	metrics *metrics.ControllerManager
	own     *metrics.Agent
	ready   *atomic.Bool
	refused atomic.Bool
	member  kubernetes.Interface
	// mcoConfig reaches mco with the agent's current token (cred), which
	// rotation renews and writes back to store.
	mcoConfig *rest.Config
	mco       mcoclient.Interface
	cred      *credential
	store     credentialStore
}

// New reads the agent's credential and returns an agent reporting into the
// given metrics and telling its readiness (connected to mco, caches
// synced) through ready.
func New(ctx context.Context, cfg Config, m *metrics.ControllerManager, own *metrics.Agent, ready *atomic.Bool) (*Agent, error) {
	a := &Agent{cfg: cfg, metrics: m, own: own, ready: ready, cred: &credential{}}
	var err error
	if a.member, err = kubernetes.NewForConfig(kubeconfig.Protobuf(cfg.Member)); err != nil {
		return nil, fmt.Errorf("member client: %w", err)
	}
	a.store = credentialStore{file: cfg.CredentialFile, secret: cfg.CredentialSecret, member: a.member}
	raw, err := a.store.load(ctx)
	if err != nil {
		return nil, err
	}
	if a.mcoConfig, err = mcoConfig(raw, a.cred); err != nil {
		return nil, fmt.Errorf("%s: %w", a.store, err)
	}
	a.mcoConfig.QPS, a.mcoConfig.Burst, a.mcoConfig.UserAgent = cfg.QPS, cfg.Burst, componentName
	watchMCO(a.mcoConfig, own, &a.refused)
	if a.mco, err = mcoclient.NewForConfig(slimwire.ForComponents(kubeconfig.Protobuf(a.mcoConfig))); err != nil {
		return nil, fmt.Errorf("mco client: %w", err)
	}
	return a, nil
}

// Run serves the cluster until ctx ends, or until mco refuses the agent's
// credential twice in a row, deletes its Cluster, or has the name for a
// Cluster the agent may not serve (an error).
func (a *Agent) Run(ctx context.Context) error {
	logger := klog.FromContext(ctx).WithValues("cluster", a.cfg.Identity.Name)
	b := newBackoff(a.cfg.RetryInitial, a.cfg.RetryMax)
	registered := false
	refusals := 0
	for {
		err := a.connect(ctx, &registered)
		if err == nil {
			b.reset()
			if err = a.session(ctx); err == nil && ctx.Err() == nil {
				err = errors.New("the controllers stopped")
			}
		}
		if ctx.Err() != nil {
			return nil
		}
		if a.refused.Swap(false) {
			refusals++
		} else {
			refusals = 0
		}
		if stop, why := terminal(err, refusals); stop {
			return why
		}
		wait := b.failed()
		logger.Info("Not serving the cluster from mco's Works for now; the member is left as it is", "retryIn", wait, "reason", err.Error())
		select {
		case <-ctx.Done():
			return nil
		case <-time.After(wait):
		}
	}
}

// terminal decides whether the agent stops for good after an attempt to
// serve the cluster ended with err (never nil), refusals being how many
// attempts in a row mco refused the credential (401) in: a single refusal
// may be a server that has just started and not read the agent's
// ServiceAccount yet, so only a second, after a wait, ends the agent. A
// deleted Cluster or one the agent may not claim ends it at once.
func terminal(err error, refusals int) (bool, error) {
	var claim *claimError
	switch {
	case errors.Is(err, errGone), errors.As(err, &claim):
		return true, err
	case refusals >= 2:
		return true, errRefused
	}
	return false, nil
}

// errGone: the agent's Cluster was deleted from mco while it served it.
var errGone = errors.New("the agent's Cluster was deleted from mco; the agent stops (register the cluster again to serve it)")

// connect registers the Cluster on first contact, then checks that mco
// answers and still has it.
func (a *Agent) connect(ctx context.Context, registered *bool) error {
	if !*registered {
		ctx, cancel := context.WithTimeout(ctx, 4*checkTimeout)
		defer cancel()
		if err := register(ctx, a.mco, a.member, a.cfg.Identity); err != nil {
			return err
		}
		*registered = true
		klog.FromContext(ctx).Info("Cluster registered in Pull mode", "cluster", a.cfg.Identity.Name)
	}
	return a.check(ctx)
}

// check reads the agent's Cluster from mco.
func (a *Agent) check(ctx context.Context) error {
	ctx, cancel := context.WithTimeout(ctx, checkTimeout)
	defer cancel()
	_, err := a.mco.ClusterV1alpha1().Clusters().Get(ctx, a.cfg.Identity.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return errGone
	}
	if err != nil {
		return fmt.Errorf("read cluster %s from mco: %w", a.cfg.Identity.Name, err)
	}
	// mco accepts the credential: an earlier refusal was not the last word.
	a.refused.Store(false)
	return nil
}

// session runs the controllers from fresh caches until mco is lost (an
// error) or ctx ends (nil). It returns once every controller has stopped.
func (a *Agent) session(ctx context.Context) error {
	logger := klog.FromContext(ctx)
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	c, err := a.newContext(ctx)
	if err != nil {
		return err
	}
	runners := map[string]shared.Runner{}
	for name, init := range map[string]shared.InitFunc{"execution": execution.New, "workStatus": workstatus.New, "clusterStatus": clusterstatus.New,
		"endpointSliceCollect": endpointslicecollect.New(a.cfg.Identity.Name)} {
		if runners[name], err = init(ctx, c); err != nil {
			return fmt.Errorf("controller %s: %w", name, err)
		}
	}
	runners["credential"] = func(ctx context.Context) error { return a.rotate(ctx, c.Kube) }
	runners["metricsReport"] = func(ctx context.Context) error { return a.reportMetrics(ctx, c) }
	c.MCOInformers.Start(ctx.Done())
	c.KubeInformers.Start(ctx.Done())
	if err := a.waitSynced(ctx, c); err != nil {
		return err
	}
	a.ready.Store(true)
	a.own.Connected.Set(1)
	a.own.Sessions.Inc()
	defer func() {
		a.ready.Store(false)
		a.own.Connected.Set(0)
	}()
	logger.Info("Connected to mco; controllers starting", "cluster", a.cfg.Identity.Name)

	var wg sync.WaitGroup
	done := make(chan error, len(runners)+1)
	wg.Add(1)
	go func() {
		defer wg.Done()
		done <- a.watch(ctx)
	}()
	for name, r := range runners {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := r(ctx); err != nil {
				done <- fmt.Errorf("controller %s: %w", name, err)
				return
			}
			done <- nil
		}()
	}
	err = <-done
	cancel()
	wg.Wait()
	if ctx.Err() != nil && err == nil {
		return nil
	}
	return err
}

// waitSynced waits, at most a minute, for the session's caches.
func (a *Agent) waitSynced(ctx context.Context, c *shared.Context) error {
	ctx, cancel := context.WithTimeout(ctx, time.Minute)
	defer cancel()
	synced := c.MCOInformers.WaitForCacheSync(ctx.Done())
	for t, ok := range c.KubeInformers.WaitForCacheSync(ctx.Done()) {
		synced[t] = ok
	}
	for t, ok := range synced {
		if !ok {
			return fmt.Errorf("cache of %v did not fill from mco", t)
		}
	}
	return nil
}

// watch checks every StatusInterval that mco still answers, and returns
// once it has not for lostAfter checks in a row, or has deleted the
// Cluster; nil when ctx ends.
func (a *Agent) watch(ctx context.Context) error {
	failed := 0
	t := time.NewTicker(a.cfg.StatusInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
		err := a.check(ctx)
		switch {
		case err == nil:
			failed = 0
			continue
		case errors.Is(err, errGone), a.refused.Load():
			return err
		case ctx.Err() != nil:
			return nil
		}
		if failed++; failed >= lostAfter {
			return fmt.Errorf("mco lost; controllers stopped: %w", err)
		}
	}
}
