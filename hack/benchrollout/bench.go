package main

import (
	"bytes"
	"context"
	"fmt"
	"time"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"github.com/mco-org/mco/hack/internal/benchkit"
	rolloutv1alpha1 "github.com/mco-org/mco/pkg/apis/rollout/v1alpha1"
	mcoclient "github.com/mco-org/mco/pkg/generated/clientset/versioned"
	"github.com/mco-org/mco/pkg/testing/localcluster"
)

// mcoServer names mco-apiserver among the scraped servers.
const mcoServer = "mco"

// bench holds the clients of one run.
type bench struct {
	o    *options
	env  *localcluster.Env
	logf func(string, ...any)
	kube kubernetes.Interface // mco-apiserver
	mco  mcoclient.Interface
}

func newBench(env *localcluster.Env, o *options, logf func(string, ...any)) (*bench, error) {
	cfg, err := benchkit.RESTConfig(env.MCO.Kubeconfig)
	if err != nil {
		return nil, err
	}
	b := &bench{o: o, env: env, logf: logf}
	if b.kube, err = kubernetes.NewForConfig(cfg); err != nil {
		return nil, err
	}
	if b.mco, err = mcoclient.NewForConfig(cfg); err != nil {
		return nil, err
	}
	return b, nil
}

// run creates the staged ConfigMaps, waits until every rollout is
// complete, then measures the window at rest and the window of one
// rollout.
func (b *bench) run(ctx context.Context) (*result, error) {
	r := &result{o: b.o}
	if err := benchkit.WaitClustersReady(ctx, b.mco, len(memberNames), 3*time.Minute); err != nil {
		return nil, err
	}
	if _, err := b.kube.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: namespace}}, metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create namespace %s on mco: %w", namespace, err)
	}
	if _, err := b.mco.PolicyV1alpha1().PropagationPolicies(namespace).Create(ctx, propagationPolicy(), metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create propagation policy: %w", err)
	}
	if _, err := b.mco.RolloutV1alpha1().RolloutPolicies(namespace).Create(ctx, rolloutPolicy(metav1.Duration{Duration: b.o.healthyFor}), metav1.CreateOptions{}); err != nil {
		return nil, fmt.Errorf("create rollout policy: %w", err)
	}
	start := time.Now()
	b.logf("creating %d ConfigMaps, %d workers", b.o.configMaps, b.o.workers)
	err := benchkit.Parallel(ctx, b.o.configMaps, b.o.workers, func(ctx context.Context, i int) error {
		cm := configMap(i, "1")
		_, err := b.kube.CoreV1().ConfigMaps(namespace).Create(ctx, cm, metav1.CreateOptions{})
		if err != nil {
			return fmt.Errorf("create configmap %s: %w", cm.Name, err)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if err := b.waitComplete(ctx, 1); err != nil {
		return nil, err
	}
	r.setUp = time.Since(start)
	b.logf("%d rollouts complete after %s; waiting until mco sees no writes for %s", b.o.configMaps, r.setUp.Round(time.Millisecond), quiet)
	if err := benchkit.WaitQuiet(ctx, b.kube, mcoServer, quiet, b.o.settle); err != nil {
		return nil, err
	}

	b.logf("measuring %s at rest", b.o.rest)
	if r.rest, err = b.window(ctx, b.o.rest, nil); err != nil {
		return nil, err
	}
	b.logf("changing %s and measuring %s while it rolls out", configMapName(0), b.o.active)
	r.active, err = b.window(ctx, b.o.active, func(ctx context.Context, started time.Time) error {
		cm := configMap(0, "2")
		if _, err := b.kube.CoreV1().ConfigMaps(namespace).Update(ctx, cm, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("update configmap %s: %w", cm.Name, err)
		}
		if err := b.waitComplete(ctx, 2); err != nil {
			return err
		}
		r.rolledOut = time.Since(started)
		return nil
	})
	if err != nil {
		return nil, err
	}
	if r.rolledOut == 0 || r.rolledOut > b.o.active {
		return nil, fmt.Errorf("the rollout of %s did not complete within the %s window (-active)", configMapName(0), b.o.active)
	}
	return r, ctx.Err()
}

// window measures wall, CPU, queue adds and writes over d, running act
// (when given) at its start.
func (b *bench) window(ctx context.Context, d time.Duration, act func(context.Context, time.Time) error) (*measured, error) {
	writesBefore, err := benchkit.ScrapeServers(ctx, map[string]kubernetes.Interface{mcoServer: b.kube})
	if err != nil {
		return nil, err
	}
	addsBefore, err := b.queueAdds(ctx)
	if err != nil {
		return nil, err
	}
	start, cpuBefore := time.Now(), b.env.CPU()
	if act != nil {
		if err := act(ctx, start); err != nil {
			return nil, err
		}
	}
	benchkit.Sleep(ctx, time.Until(start.Add(d)))
	m := &measured{wall: time.Since(start)}
	m.cpu = benchkit.CPUUse(cpuBefore, b.env.CPU(), m.wall)
	writesAfter, err := benchkit.ScrapeServers(ctx, map[string]kubernetes.Interface{mcoServer: b.kube})
	if err != nil {
		return nil, err
	}
	m.writes = benchkit.Diff(writesBefore, writesAfter, mcoServer)[0]
	addsAfter, err := b.queueAdds(ctx)
	if err != nil {
		return nil, err
	}
	m.adds = map[string]float64{}
	for name, v := range addsAfter {
		if delta := v - addsBefore[name]; delta > 0 {
			m.adds[name] = delta
		}
	}
	return m, ctx.Err()
}

// queueAdds reads workqueue_adds_total of mco-controller-manager by queue.
func (b *bench) queueAdds(ctx context.Context) (map[string]float64, error) {
	raw, err := benchkit.HTTPGet(ctx, b.env.MCO.ControllerManagerURL()+"/metrics")
	if err != nil {
		return nil, fmt.Errorf("scrape mco-controller-manager: %w", err)
	}
	parser := expfmt.NewTextParser(model.UTF8Validation)
	families, err := parser.TextToMetricFamilies(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("parse mco-controller-manager's metrics: %w", err)
	}
	out := map[string]float64{}
	for _, m := range families["workqueue_adds_total"].GetMetric() {
		for _, l := range m.GetLabel() {
			if l.GetName() == "name" {
				out[l.GetValue()] += m.GetCounter().GetValue()
			}
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("mco-controller-manager serves no workqueue_adds_total")
	}
	return out, nil
}

// quiet is how long mco must see no writes before the first window.
const quiet = 5 * time.Second

// waitComplete waits until every ConfigMap's rollout is complete, the
// first ConfigMap's at revision first and the others' at 1.
func (b *bench) waitComplete(ctx context.Context, first int64) error {
	var complete, rollouts int
	err := wait.PollUntilContextTimeout(ctx, 250*time.Millisecond, 10*time.Minute, true, func(ctx context.Context) (bool, error) {
		list, err := b.mco.RolloutV1alpha1().Rollouts(namespace).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, nil
		}
		complete, rollouts = 0, len(list.Items)
		for i := range list.Items {
			ro := &list.Items[i]
			want := int64(1)
			if ro.Spec.Resource.Name == configMapName(0) {
				want = first
			}
			if ro.Status.State() == rolloutv1alpha1.ConditionComplete && ro.Status.CurrentRevision == want {
				complete++
			}
		}
		return complete == b.o.configMaps, nil
	})
	if err != nil {
		return fmt.Errorf("%d of %d rollouts complete (%d Rollouts): %w", complete, b.o.configMaps, rollouts, err)
	}
	return nil
}
