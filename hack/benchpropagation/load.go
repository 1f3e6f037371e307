package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/mco-org/mco/hack/internal/benchkit"
)

// rawCreateRate creates rawCount ConfigMaps in a fresh namespace with
// `workers` concurrent creates and returns objects per second: what
// mco-apiserver can store when nothing else is asked of it.
func (b *bench) rawCreateRate(ctx context.Context) (float64, error) {
	ns := b.o.rawNamespace
	if err := b.ensureNamespace(ctx, ns); err != nil {
		return 0, err
	}
	b.logf("raw create rate: %d ConfigMaps in %s, %d workers", b.o.rawCount, ns, b.o.workers)
	start := time.Now()
	err := benchkit.Parallel(ctx, b.o.rawCount, b.o.workers, func(ctx context.Context, i int) error {
		cm := &corev1.ConfigMap{
			ObjectMeta: metav1.ObjectMeta{Name: fmt.Sprintf("cm-%05d", i), Namespace: ns},
			Data:       map[string]string{"key": "value"},
		}
		if _, err := b.kube.CoreV1().ConfigMaps(ns).Create(ctx, cm, metav1.CreateOptions{}); err != nil {
			return fmt.Errorf("create configmap %s/%s: %w", ns, cm.Name, err)
		}
		return nil
	})
	if err != nil {
		return 0, err
	}
	return float64(b.o.rawCount) / time.Since(start).Seconds(), nil
}

// createSteady creates the Deployments at rate per second, each create in its own
// goroutine so that a slow one does not delay the next (open loop).
func (b *bench) createSteady(ctx context.Context, t *tracker, names []string, rate float64) error {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	interval := time.Duration(float64(time.Second) / rate)
	ticker := time.NewTicker(interval)
	defer ticker.Stop()
	var wg sync.WaitGroup
	var once sync.Once
	var first error
	for i, name := range names {
		if i > 0 {
			select {
			case <-ctx.Done():
			case <-ticker.C:
			}
		}
		if ctx.Err() != nil {
			break
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := b.createDeployment(ctx, t, name); err != nil {
				once.Do(func() { first = err; cancel() })
			}
		}()
	}
	wg.Wait()
	if first != nil {
		return first
	}
	return ctx.Err()
}

// createFull creates the Deployments as fast as `workers` concurrent
// creates allow.
func (b *bench) createFull(ctx context.Context, t *tracker, names []string) error {
	return benchkit.Parallel(ctx, len(names), b.o.workers, func(ctx context.Context, i int) error {
		return b.createDeployment(ctx, t, names[i])
	})
}

// createDeployment creates one Deployment on mco and records when the
// create returned.
func (b *bench) createDeployment(ctx context.Context, t *tracker, name string) error {
	if _, err := b.kube.AppsV1().Deployments(b.o.benchSpace).Create(ctx, deployment(b.o.benchSpace, name), metav1.CreateOptions{}); err != nil {
		return fmt.Errorf("create deployment %s/%s: %w", b.o.benchSpace, name, err)
	}
	t.created(name, time.Now())
	return nil
}

func deploymentNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("app-%05d", i)
	}
	return out
}

// deployment is a small Deployment of 3 replicas.
func deployment(ns, name string) *appsv1.Deployment {
	replicas := int32(3)
	labels := map[string]string{"app": name}
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, Labels: labels},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{
					Name:  "app",
					Image: "registry.k8s.io/pause:3.10",
					Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{
						corev1.ResourceCPU:    resource.MustParse("10m"),
						corev1.ResourceMemory: resource.MustParse("16Mi"),
					}},
				}}},
			},
		},
	}
}
