package main

import (
	"context"
	"fmt"
	"path/filepath"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/metadata"

	"github.com/mco-org/mco/hack/internal/benchkit"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// mcoServer names mco-apiserver among the scraped servers.
const mcoServer = "mco"

// scale holds the clients of one run.
type scale struct {
	o       *options
	env     *localcluster.Env
	logf    func(string, ...any)
	kube    kubernetes.Interface // mco-apiserver
	mco     mcoclient.Interface
	members []kubernetes.Interface
	meta    []metadata.Interface
}

func newScale(env *localcluster.Env, o *options, logf func(string, ...any)) (*scale, error) {
	cfg, err := benchkit.RESTConfig(env.MCO.Kubeconfig)
	if err != nil {
		return nil, err
	}
	s := &scale{o: o, env: env, logf: logf}
	if s.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if s.mco, err = mcoclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	for _, m := range env.Members {
		mcfg, err := benchkit.RESTConfig(m.Kubeconfig)
		if err != nil {
			return nil, err
		}
		client, err := kubernetes.NewForConfig(mcfg)
		if err != nil {
			return nil, err
		}
		mc, err := metadata.NewForConfig(mcfg)
		if err != nil {
			return nil, err
		}
		s.members, s.meta = append(s.members, client), append(s.meta, mc)
	}
	return s, nil
}

// run propagates the objects, counts, then deletes their namespace.
func (s *scale) run(ctx context.Context) (*result, error) {
	r := &result{o: s.o}
	if err := s.waitClustersReady(ctx, 3*time.Minute); err != nil {
		return nil, err
	}
	ns := s.o.namespace
	if _, err := s.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create namespace %s on mco: %w", ns, err)
	}
	for _, p := range []*policyv1alpha1.PropagationPolicy{deploymentPolicy(ns, s.o.spread), configMapPolicy(ns)} {
		if _, err := s.mco.PolicyV1alpha1().PropagationPolicies(ns).Create(ctx, p, metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("create propagation policy %s: %w", p.Name, err)
		}
	}
	t, err := startTracker(ctx, s.meta, ns)
	if err != nil {
		return nil, err
	}
	before, err := s.scrapeAll(ctx)
	if err != nil {
		return nil, err
	}

	start, cpuBefore := time.Now(), s.env.CPU()
	sampling, stopSampling := context.WithCancel(ctx)
	defer stopSampling()
	memory := benchkit.SampleMemory(sampling, s.processes(), benchkit.EtcdDatabase, time.Second)
	if s.o.profiles != "" && s.o.profileEvery > 0 {
		every, stop := context.WithCancel(ctx)
		defer stop()
		go s.profileEvery(every, filepath.Join(s.o.profiles, "every"), s.o.profileEvery)
	}
	profiled := func() map[string]benchkit.Serialization { return nil }
	if s.o.cpuProfile > 0 {
		profiled = benchkit.ProfileCPU(ctx, filepath.Join(s.o.dir, "profiles"), int(s.o.cpuProfile.Seconds()),
			benchkit.MCOProfiles(s.kube, s.env.MCO), s.logf)
	}
	s.logf("creating %d Deployments and %d ConfigMaps in %s, %d workers", s.o.deployments, s.o.configMaps, ns, s.o.workers)
	if err := s.create(ctx, t); err != nil {
		return nil, err
	}
	r.created = time.Since(start)
	s.logf("creates done after %s", r.created.Round(time.Millisecond))
	if err := s.waitPropagated(ctx, t); err != nil {
		return nil, err
	}
	r.deploymentLatency, r.deploymentsDone = t.latencies(deploymentsGVR.Resource)
	r.configMapLatency, r.configMapsDone = t.latencies(configMapsGVR.Resource)
	r.propagated = later(r.deploymentsDone, r.configMapsDone).Sub(start)
	r.deploymentSpread = t.spread(deploymentsGVR.Resource, len(s.members))
	s.logf("every object in its members after %s; settling %s before counting", r.propagated.Round(time.Millisecond), s.o.settle)
	benchkit.Sleep(ctx, s.o.settle)
	after, err := s.scrapeAll(ctx)
	if err != nil {
		return nil, err
	}
	r.propagateCPU = benchkit.CPUUse(cpuBefore, s.env.CPU(), time.Since(start))
	r.serialization = profiled()
	r.writes = benchkit.Diff(before, after, mcoServer)
	if r.rssAfterPropagation, err = s.rss(benchkit.RSSMiB); err != nil {
		return nil, err
	}
	if s.o.profiles != "" {
		if err := s.saveHeapProfiles(ctx, s.o.profiles); err != nil {
			return nil, err
		}
	}

	deleteStart, deleteCPUBefore := time.Now(), s.env.CPU()
	if r.deletion, err = s.deleteNamespace(ctx, t); err != nil {
		return nil, err
	}
	r.deleteCPU = benchkit.CPUUse(deleteCPUBefore, s.env.CPU(), time.Since(deleteStart))
	if r.peakRSS, err = s.rss(benchkit.PeakRSSMiB); err != nil {
		return nil, err
	}
	r.sampled = memory.Peaks()
	stopSampling()
	if etcd := s.env.MCO.Etcd; etcd != nil {
		if r.etcdPeakRSS, err = benchkit.PeakRSSMiB(etcd); err != nil {
			return nil, err
		}
	}
	return r, ctx.Err()
}

// create runs the benchmark's creates, the ConfigMaps spread evenly
// among the Deployments so that both kinds flow through mco at once.
func (s *scale) create(ctx context.Context, t *tracker) error {
	order := interleave(s.o.deployments, s.o.configMaps)
	ns, spread, all := s.o.namespace, s.o.spread, len(s.members)
	return benchkit.Parallel(ctx, len(order), s.o.workers, func(ctx context.Context, i int) error {
		o := order[i]
		if o.configMap {
			cm := configMap(ns, o.index)
			if _, err := s.kube.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
				return fmt.Errorf("create configmap %s/%s: %w", ns, cm.Name, err)
			}
			t.expect(configMapsGVR.Resource, cm.Name, all, time.Now())
			return nil
		}
		d := deployment(ns, o.index)
		if _, err := s.kube.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create deployment %s/%s: %w", ns, d.Name, err)
		}
		t.expect(deploymentsGVR.Resource, d.Name, spread, time.Now())
		return nil
	})
}

// object is one create of the benchmark: the index-th Deployment or
// ConfigMap.
type object struct {
	configMap bool
	index     int
}

// interleave orders d Deployments and c ConfigMaps so that the ConfigMaps
// come at even intervals.
func interleave(d, c int) []object {
	n := d + c
	out := make([]object, 0, n)
	var di, ci int
	for j := 0; j < n; j++ {
		if (j+1)*c/n > j*c/n {
			out = append(out, object{configMap: true, index: ci})
			ci++
		} else {
			out = append(out, object{index: di})
			di++
		}
	}
	return out
}

// waitPropagated waits until every object is in every member it needs,
// reporting progress every 10 s.
func (s *scale) waitPropagated(ctx context.Context, t *tracker) error {
	lastLog := time.Now()
	for {
		done, expected := t.progress()
		if done == expected {
			return nil
		}
		if time.Since(lastLog) >= 10*time.Second {
			s.logf("%d of %d objects in every member they need", done, expected)
			lastLog = time.Now()
		}
		select {
		case <-ctx.Done():
			return fmt.Errorf("only %d of %d objects reached their members: %w", done, expected, ctx.Err())
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// waitClustersReady waits until every member's Cluster on mco is Ready,
// lists its APIs and reports its nodes' capacity, which the scheduler
// divides by.
func (s *scale) waitClustersReady(ctx context.Context, timeout time.Duration) error {
	var notReady []string
	err := wait.PollUntilContextTimeout(ctx, 500*time.Millisecond, timeout, true, func(ctx context.Context) (bool, error) {
		list, err := s.mco.ClusterV1alpha1().Clusters().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		notReady = notReady[:0]
		ready := 0
		for _, c := range list.Items {
			if meta.IsStatusConditionTrue(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady) &&
				len(c.Status.APIEnablements) > 0 && c.Status.ResourceSummary != nil && len(c.Status.ResourceSummary.Allocatable) > 0 {
				ready++
			} else {
				notReady = append(notReady, c.Name)
			}
		}
		return ready == len(s.members), nil
	})
	if err != nil {
		return fmt.Errorf("clusters %v not Ready with capacity on mco: %w", notReady, err)
	}
	return nil
}

// scrapeAll reads apiserver_request_total from mco-apiserver and every
// member's kube-apiserver, keyed by server.
func (s *scale) scrapeAll(ctx context.Context) (map[string]benchkit.Counts, error) {
	servers := map[string]kubernetes.Interface{mcoServer: s.kube}
	for i, m := range s.members {
		servers[s.env.Members[i].Spec.Name] = m
	}
	return benchkit.ScrapeServers(ctx, servers)
}

// processes are mco's processes in mcoProcesses' order.
func (s *scale) processes() []*localcluster.Process {
	return []*localcluster.Process{s.env.MCO.APIServer, s.env.MCO.ControllerManager, s.env.MCO.Scheduler}
}

// rss reads one memory figure of each of mco's processes, in their order.
func (s *scale) rss(read func(*localcluster.Process) (float64, error)) ([]float64, error) {
	var out []float64
	for _, p := range s.processes() {
		v, err := read(p)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, nil
}

func later(a, b time.Time) time.Time {
	if a.After(b) {
		return a
	}
	return b
}
