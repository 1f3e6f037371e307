package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/hack/internal/benchkit"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// bench holds the clients of one run.
type bench struct {
	o       *options
	env     *localcluster.Env
	logf    func(string, ...any)
	kube    kubernetes.Interface // mco-apiserver
	mco     mcoclient.Interface
	members map[string]kubernetes.Interface
	names   []string // member names, in order
}

func newBench(env *localcluster.Env, o *options, logf func(string, ...any)) (*bench, error) {
	cfg, err := benchkit.RESTConfig(env.MCO.Kubeconfig)
	if err != nil {
		return nil, err
	}
	b := &bench{o: o, env: env, logf: logf, members: map[string]kubernetes.Interface{}}
	if b.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if b.mco, err = mcoclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	for _, m := range env.Members {
		mcfg, err := localcluster.RESTConfig(m.Kubeconfig)
		if err != nil {
			return nil, err
		}
		if b.members[m.Spec.Name], err = kubernetes.NewForConfig(mcfg); err != nil {
			return nil, err
		}
		b.names = append(b.names, m.Spec.Name)
	}
	return b, nil
}

// run measures, in order: the raw create rate, then the Deployments'
// propagation (full speed, then steady) with the write counts and CPU
// around it, memory, and last the deletion of their namespace.
func (b *bench) run(ctx context.Context) (*result, error) {
	r := &result{deployments: b.o.deployments, steadyCount: b.o.steadyCount, steadyRate: b.o.steadyRate,
		rawCount: b.o.rawCount, workers: b.o.workers, settle: b.o.settle, members: b.names, mode: b.o.members,
		timing: benchkit.TimingNote(b.o.timing)}
	if err := b.waitClustersReady(ctx, 2*time.Minute); err != nil {
		return nil, err
	}
	var err error
	if r.rawPerSecond, err = b.rawCreateRate(ctx); err != nil {
		return nil, err
	}
	b.logf("raw create rate: %.1f ConfigMaps/s", r.rawPerSecond)

	if err := b.ensureNamespace(ctx, b.o.benchSpace); err != nil {
		return nil, err
	}
	if _, err := b.mco.PolicyV1alpha1().PropagationPolicies(b.o.benchSpace).Create(ctx, b.policy(), metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create propagation policy: %w", err)
	}
	if err := b.waitMemberNamespace(ctx, b.o.benchSpace, time.Minute); err != nil {
		return nil, err
	}
	t, err := startTracker(ctx, b.members, b.o.benchSpace)
	if err != nil {
		return nil, err
	}
	var avail *availability
	if b.o.full() {
		if avail, err = watchAvailability(ctx, b.kube, b.members, b.o.benchSpace); err != nil {
			return nil, err
		}
	}
	restStart, restBefore := time.Now(), b.env.CPU()
	benchkit.Sleep(ctx, b.o.settle)
	r.restCPU = benchkit.CPUUse(restBefore, b.env.CPU(), time.Since(restStart))
	if r.agentsAtRest, err = b.agentRSS(); err != nil {
		return nil, err
	}
	before, err := b.scrapeAll(ctx)
	if err != nil {
		return nil, err
	}

	runStart, runBefore := time.Now(), b.env.CPU()
	names := deploymentNames(b.o.deployments)
	full, steady := names[:len(names)-b.o.steadyCount], names[len(names)-b.o.steadyCount:]
	if len(full) > 0 {
		b.logf("full-speed phase: %d Deployments, %d workers", len(full), b.o.workers)
		start, cpuBefore := time.Now(), b.env.CPU()
		// mco's processes are always profiled (encoding and decoding CPU
		// by content type); the member only when asked.
		profileDir := b.o.profileDir
		if profileDir == "" {
			profileDir = filepath.Join(b.o.dir, "profiles")
		}
		profiled := b.profileFull(ctx, profileDir, b.o.profileSecs, b.o.profileDir != "")
		if err := b.createFull(ctx, t, full); err != nil {
			return nil, err
		}
		r.fullCreate = time.Since(start)
		if err := t.wait(ctx, full, "full-speed", b.logf); err != nil {
			return nil, err
		}
		r.fullDuration = t.lastComplete(full).Sub(start)
		r.fullCPU = benchkit.CPUUse(cpuBefore, b.env.CPU(), time.Since(start))
		r.serialization, r.profileSecs = profiled(), b.o.profileSecs
		r.full = t.latencies(full)
		r.memberFull = t.memberLatencies(full)
	}
	if len(steady) > 0 {
		if r.steadyRate == 0 {
			// Half the measured full-speed rate: what the machine sustains
			// with room to spare, so latency is not queueing.
			r.steadyRate = max(1, r.fullPerSecond()/2)
		}
		b.logf("steady phase: %d Deployments at %.1f/s", len(steady), r.steadyRate)
		if err := b.createSteady(ctx, t, steady, r.steadyRate); err != nil {
			return nil, err
		}
		if err := t.wait(ctx, steady, "steady", b.logf); err != nil {
			return nil, err
		}
		r.steady = t.latencies(steady)
		r.memberSteady = t.memberLatencies(steady)
	}
	if b.o.full() {
		if r.availableAfter, err = b.waitAvailable(ctx, avail, names, runStart); err != nil {
			return nil, err
		}
		r.statusLags = avail.lags(names)
		r.steadyLags = avail.lags(steady)
		r.memberTimes = avail.memberTimes(names)
	}

	b.logf("every Deployment is in every member; settling %s before counting writes", b.o.settle)
	benchkit.Sleep(ctx, b.o.settle)
	after, err := b.eventsWritten(ctx)
	if err != nil {
		return nil, err
	}
	r.runCPU = benchkit.CPUUse(runBefore, b.env.CPU(), time.Since(runStart))
	r.writes = benchkit.Diff(before, after, mcoServer)
	if r.events, err = b.checkEvents(ctx, names); err != nil {
		return nil, err
	}
	if r.rssAPIServer, err = benchkit.RSSMiB(b.env.MCO.APIServer); err != nil {
		return nil, err
	}
	if r.rssControllerManager, err = benchkit.RSSMiB(b.env.MCO.ControllerManager); err != nil {
		return nil, err
	}
	if r.rssScheduler, err = benchkit.RSSMiB(b.env.MCO.Scheduler); err != nil {
		return nil, err
	}
	if r.agents, err = b.agentRSS(); err != nil {
		return nil, err
	}
	if r.deletion, err = b.deleteNamespace(ctx, b.o.benchSpace); err != nil {
		return nil, err
	}
	return r, ctx.Err()
}

// eventsWritten scrapes every server once mco's Events have stopped
// coming: each component writes its Events one at a time, so at full speed
// they trail behind the propagation itself.
func (b *bench) eventsWritten(ctx context.Context) (map[string]benchkit.Counts, error) {
	start := time.Now()
	last, err := b.scrapeAll(ctx)
	if err != nil {
		return nil, err
	}
	for time.Since(start) < 2*time.Minute && ctx.Err() == nil {
		benchkit.Sleep(ctx, 2*time.Second)
		now, err := b.scrapeAll(ctx)
		if err != nil {
			return nil, err
		}
		if now[mcoServer][benchkit.EventKey] == last[mcoServer][benchkit.EventKey] {
			if waited := time.Since(start); waited > 3*time.Second {
				b.logf("Events stopped coming after %s more", waited.Round(time.Second))
			}
			return now, nil
		}
		last = now
	}
	return last, ctx.Err()
}

// policy selects every Deployment of the bench namespace and divides its
// replicas 1:1:1 over the members.
func (b *bench) policy() *policyv1alpha1.PropagationPolicy {
	var weights []policyv1alpha1.StaticClusterWeight
	for _, name := range b.names {
		weights = append(weights, policyv1alpha1.StaticClusterWeight{
			TargetCluster: policyv1alpha1.ClusterAffinity{ClusterNames: []string{name}}, Weight: 1,
		})
	}
	return &policyv1alpha1.PropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "all-deployments", Namespace: b.o.benchSpace},
		Spec: policyv1alpha1.PropagationSpec{
			ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: "apps/v1", Kind: "Deployment"}},
			Placement: policyv1alpha1.Placement{
				ClusterAffinity: &policyv1alpha1.ClusterAffinity{ClusterNames: b.names},
				ReplicaScheduling: &policyv1alpha1.ReplicaSchedulingStrategy{
					ReplicaSchedulingType:     policyv1alpha1.ReplicaSchedulingTypeDivided,
					ReplicaDivisionPreference: policyv1alpha1.ReplicaDivisionPreferenceWeighted,
					WeightPreference:          &policyv1alpha1.ClusterPreferences{StaticWeightList: weights},
				},
			},
		},
	}
}

// waitClustersReady waits until every member's Cluster on mco is Ready and
// lists its APIs, so that the first Deployments are not scheduled against
// clusters mco knows nothing of yet.
func (b *bench) waitClustersReady(ctx context.Context, timeout time.Duration) error {
	var notReady []string
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		notReady = notReady[:0]
		for _, name := range b.names {
			c, err := b.mco.ClusterV1alpha1().Clusters().Get(ctx, name, metav1.GetOptions{})
			if err != nil || !meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) || len(c.Status.APIEnablements) == 0 {
				notReady = append(notReady, name)
			}
		}
		return len(notReady) == 0, nil
	})
	if err != nil {
		return fmt.Errorf("clusters %v not Ready on mco: %w", notReady, err)
	}
	return nil
}

func (b *bench) ensureNamespace(ctx context.Context, name string) error {
	_, err := b.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: name}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return fmt.Errorf("create namespace %s on mco: %w", name, err)
	}
	return nil
}

// waitMemberNamespace waits until mco's namespace controller has copied the
// namespace to every member, so that its writes fall before the counting.
func (b *bench) waitMemberNamespace(ctx context.Context, ns string, timeout time.Duration) error {
	var missing []string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		missing = missing[:0]
		for _, name := range b.names {
			if _, err := b.members[name].CoreV1().Namespaces().Get(ctx, ns, metav1.GetOptions{}); err != nil {
				missing = append(missing, name)
			}
		}
		return len(missing) == 0, nil
	})
	if err != nil {
		return fmt.Errorf("namespace %s not in members %v: %w", ns, missing, err)
	}
	return nil
}

// agentRSS is the resident set size of each Pull member's mco-agent now.
func (b *bench) agentRSS() (map[string]float64, error) {
	out := map[string]float64{}
	for _, m := range b.env.Members {
		if m.Agent == nil {
			continue
		}
		rss, err := benchkit.RSSMiB(m.Agent)
		if err != nil {
			return nil, err
		}
		out[m.Spec.Name] = rss
	}
	return out, nil
}
