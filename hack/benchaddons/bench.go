package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	apiextensionsv1 "k8s.io/apiextensions-apiserver/pkg/apis/apiextensions/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/hack/internal/benchkit"
	addonsv1alpha1 "github.com/mco-org/mco/pkg/apis/addons/v1alpha1"
	policyv1alpha1 "github.com/mco-org/mco/pkg/apis/policy/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/chartrepo"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// mcoServer names mco-apiserver among the scraped servers.
const mcoServer = "mco"

// benchLabel marks the benchmark's Addons, which its policy selects.
const benchLabel = "bench.mco-org.github.io/addons"

// bench holds the clients of one run.
type bench struct {
	o    *options
	env  *localcluster.Env
	logf func(string, ...any)
	kube kubernetes.Interface // mco-apiserver
	mco  mcoclient.Interface
	repo *chartrepo.Server
}

func newBench(env *localcluster.Env, o *options, logf func(string, ...any)) (*bench, error) {
	cfg, err := benchkit.RESTConfig(env.MCO.Kubeconfig)
	if err != nil {
		return nil, err
	}
	b := &bench{o: o, env: env, logf: logf, repo: chartrepo.Start()}
	if b.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if b.mco, err = mcoclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	return b, nil
}

// run publishes the chart, creates the add-ons and their policy, and
// measures until every add-on is Healthy in every member.
func (b *bench) run(ctx context.Context) (*result, error) {
	r := &result{o: b.o}
	chartDir := filepath.Join(b.o.dir, "chart")
	if err := writeChart(chartDir, b.o.objects); err != nil {
		return nil, err
	}
	pkgDir := filepath.Join(b.o.dir, "packaged")
	if err := os.MkdirAll(pkgDir, 0o755); err != nil {
		return nil, err
	}
	if _, err := b.repo.Publish(chartrepo.Chart{Dir: chartDir}, pkgDir); err != nil {
		return nil, err
	}
	if err := benchkit.WaitClustersReady(ctx, b.mco, b.o.members, 5*time.Minute); err != nil {
		return nil, err
	}
	writesBefore, err := benchkit.ScrapeServers(ctx, map[string]kubernetes.Interface{mcoServer: b.kube})
	if err != nil {
		return nil, err
	}
	rendersBefore, err := b.renders(ctx)
	if err != nil {
		return nil, err
	}
	b.logf("measuring %s at rest", restWindow)
	restStart, restBefore := time.Now(), b.env.CPU()
	benchkit.Sleep(ctx, restWindow)
	r.restFor = time.Since(restStart)
	r.rest = benchkit.CPUUse(restBefore, b.env.CPU(), r.restFor)
	profiled := b.profile(ctx, r)
	start, cpuBefore := time.Now(), b.env.CPU()
	b.logf("creating %d add-ons of %d objects each on %d members", b.o.addons, b.o.objects, b.o.members)
	if _, err := b.mco.PolicyV1alpha1().ClusterPropagationPolicies().Create(ctx, policy(), metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create the policy: %w", err)
	}
	for i := 0; i < b.o.addons; i++ {
		if _, err := b.mco.AddonsV1alpha1().Addons().Create(ctx, addon(i, b.repo.URL), metav1.CreateOptions{}); err != nil {
			return nil, fmt.Errorf("create add-on %d: %w", i, err)
		}
	}
	if err := b.waitHealthy(ctx); err != nil {
		return nil, err
	}
	r.healthy = time.Since(start)
	b.logf("every add-on Healthy in every member after %s; waiting until mco sees no writes for %s", r.healthy.Round(time.Millisecond), quiet)
	if err := benchkit.WaitQuiet(ctx, b.kube, mcoServer, quiet, 3*time.Minute); err != nil {
		return nil, err
	}
	r.wall = time.Since(start)
	r.cpu = benchkit.CPUUse(cpuBefore, b.env.CPU(), r.wall)
	writesAfter, err := benchkit.ScrapeServers(ctx, map[string]kubernetes.Interface{mcoServer: b.kube})
	if err != nil {
		return nil, err
	}
	r.writes = benchkit.Diff(writesBefore, writesAfter, mcoServer)[0]
	rendersAfter, err := b.renders(ctx)
	if err != nil {
		return nil, err
	}
	r.renders = rendersAfter - rendersBefore
	b.logf("waiting for the CPU profile (%s from the creation)", profileWindow)
	if err := <-profiled; err != nil {
		return nil, fmt.Errorf("profile mco-controller-manager: %w", err)
	}
	for _, p := range b.env.Processes() {
		if p.Name == "mco-apiserver" || p.Name == controllerManager || p.Name == "mco-scheduler" {
			if mib, err := benchkit.PeakRSSMiB(p); err == nil {
				r.peakRSS = append(r.peakRSS, rss{p.Name, mib})
			}
		}
	}
	return r, ctx.Err()
}

func policy() *policyv1alpha1.ClusterPropagationPolicy {
	return &policyv1alpha1.ClusterPropagationPolicy{
		ObjectMeta: metav1.ObjectMeta{Name: "bench-addons"},
		Spec: policyv1alpha1.PropagationSpec{
			ResourceSelectors: []policyv1alpha1.ResourceSelector{{APIVersion: addonsv1alpha1.SchemeGroupVersion.String(), Kind: "Addon",
				LabelSelector: &metav1.LabelSelector{MatchLabels: map[string]string{benchLabel: "true"}}}},
			Placement: policyv1alpha1.Placement{},
		},
	}
}

func addonName(i int) string { return fmt.Sprintf("bench-%02d", i) }

// addon is the i-th add-on: the chart with each member's group as value.
func addon(i int, repository string) *addonsv1alpha1.Addon {
	values, _ := json.Marshal(map[string]any{"group": "${cluster.labels['" + groupLabel + "']}"})
	return &addonsv1alpha1.Addon{
		ObjectMeta: metav1.ObjectMeta{Name: addonName(i), Labels: map[string]string{benchLabel: "true"}},
		Spec: addonsv1alpha1.AddonSpec{
			Chart:   addonsv1alpha1.ChartSource{Repository: repository, Name: "bench", Version: "1.0.0"},
			Release: addonsv1alpha1.Release{Namespace: addonName(i), CreateNamespace: true},
			Values:  &apiextensionsv1.JSON{Raw: values},
		},
	}
}

// renders reads mco_addon_renders_total of mco-controller-manager.
func (b *bench) renders(ctx context.Context) (float64, error) {
	raw, err := benchkit.HTTPGet(ctx, b.env.MCO.ControllerManagerURL()+"/metrics")
	if err != nil {
		return 0, fmt.Errorf("scrape mco-controller-manager: %w", err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		return 0, fmt.Errorf("parse mco-controller-manager's metrics: %w", err)
	}
	f, ok := families["mco_addon_renders_total"]
	if !ok || len(f.GetMetric()) == 0 {
		return 0, fmt.Errorf("mco-controller-manager serves no mco_addon_renders_total")
	}
	return f.GetMetric()[0].GetCounter().GetValue(), nil
}

// waitHealthy waits until every add-on is Ready with every member
// Healthy.
func (b *bench) waitHealthy(ctx context.Context) error {
	var ready, healthy int
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, b.o.timeout, true, func(ctx context.Context) (bool, error) {
		list, err := b.mco.AddonsV1alpha1().Addons().List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		ready, healthy = 0, 0
		for _, a := range list.Items {
			if meta.IsStatusConditionTrue(a.Status.Conditions, addonsv1alpha1.AddonReady) && len(a.Status.Clusters) == b.o.members {
				ready++
			}
			for _, c := range a.Status.Clusters {
				if c.Phase == addonsv1alpha1.PhaseHealthy {
					healthy++
				}
			}
		}
		return ready == b.o.addons, nil
	})
	if err != nil {
		return fmt.Errorf("%d of %d add-ons Ready, %d of %d (add-on, cluster) Healthy: %w", ready, b.o.addons, healthy, b.o.addons*b.o.members, err)
	}
	return nil
}

// restWindow is how long the idle control plane (members' heartbeats and
// status) is measured, to leave it out of what the add-ons cost.
const restWindow = 10 * time.Second

// quiet is how long mco must see no writes before the run ends.
const quiet = 5 * time.Second

// profileWindow is how long mco-controller-manager's CPU is profiled
// from the creation of the add-ons: past the run at the default sizes.
const profileWindow = 45 * time.Second

// profile records mco-controller-manager's CPU for profileWindow into
// -cpuprofile (the run's directory by default) and sets how much of it
// the add-ons' own code took; the channel gives the outcome.
func (b *bench) profile(ctx context.Context, r *result) <-chan error {
	done := make(chan error, 1)
	path := b.o.profile
	if path == "" {
		path = filepath.Join(b.o.dir, "controller-manager.cpu.pprof")
	}
	go func() {
		url := fmt.Sprintf("%s/debug/pprof/profile?seconds=%d", b.env.MCO.ControllerManagerURL(), int(profileWindow.Seconds()))
		raw, err := benchkit.HTTPGet(ctx, url)
		if err == nil {
			err = os.WriteFile(path, raw, 0o644)
		}
		if err == nil {
			r.addonCPU, r.profiledCPU, err = addonCPU(raw)
		}
		done <- err
	}()
	return done
}
