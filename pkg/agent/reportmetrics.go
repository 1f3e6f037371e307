/*
Copyright The mco Authors.

Licensed under the Apache License, Version 2.0 (the "License");
you may not use this file except in compliance with the License.
You may obtain a copy of the License at

    http://www.apache.org/licenses/LICENSE-2.0

Unless required by applicable law or agreed to in writing, software
distributed under the License is distributed on an "AS IS" BASIS,
WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
See the License for the specific language governing permissions and
limitations under the License.
*/

package agent

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	metricsv1beta1client "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"

	"github.com/mco-org/mco/pkg/agent/access"
	"github.com/mco-org/mco/pkg/controllers/shared"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// metricsReportInterval is how often the agent reports its member's
// metrics; metricsReadTimeout bounds one read of them.
const (
	metricsReportInterval = 15 * time.Second
	metricsReadTimeout    = 5 * time.Second
)

// reportMetrics reports, every metricsReportInterval, what the member's
// metrics API (its metrics-server) answers, and its pods, into the
// agent's own ConfigMap on mco, from which mco-apiserver serves
// metrics.k8s.io for this Pull cluster and mco-controller-manager's
// FederatedHPA counts its pods: mco never dials the member. A member
// without a metrics API reports nothing. It returns when ctx ends; a
// report that cannot start leaves the agent's other work running.
func (a *Agent) reportMetrics(ctx context.Context, c *shared.Context) error {
	cluster := a.cfg.Identity.Name
	logger := klog.FromContext(ctx)
	member, pods, err := memberMetricsClient(c, cluster)
	if err != nil {
		logger.Error(err, "Member metrics not reported", "cluster", cluster)
		<-ctx.Done()
		return nil
	}
	wait.UntilWithContext(ctx, func(ctx context.Context) {
		if err := reportMetricsOnce(ctx, member, pods, c.Kube, cluster, metav1.Now()); err != nil {
			logger.V(2).Info("Member metrics not reported", "cluster", cluster, "err", err)
		}
	}, metricsReportInterval)
	return nil
}

// memberMetricsClient reads the member's metrics API, and its pods from
// the agent's cache of them (the one the cluster's status is summed from).
func memberMetricsClient(c *shared.Context, cluster string) (metricsv1beta1client.MetricsV1beta1Interface, podLister, error) {
	clients, err := c.Members.Get(cluster)
	if err != nil {
		return nil, nil, fmt.Errorf("metrics report: %w", err)
	}
	cfg := rest.CopyConfig(clients.Config)
	cfg.Timeout = metricsReadTimeout
	member, err := metricsv1beta1client.NewForConfig(cfg)
	if err != nil {
		return nil, nil, fmt.Errorf("metrics report: metrics client of cluster %s: %w", cluster, err)
	}
	pods := clients.Typed.Core().V1().Pods()
	informer := pods.Informer()
	clients.Start()
	return member, func() ([]*corev1.Pod, error) {
		if !informer.HasSynced() {
			return nil, fmt.Errorf("the member's pods are not read yet")
		}
		return pods.Lister().List(labels.Everything())
	}, nil
}

// podLister lists the member's pods.
type podLister func() ([]*corev1.Pod, error)

// reportMetricsOnce reads the member's pod and node metrics and its pods
// and writes them into the cluster's ConfigMap on mco. Pods that cannot
// be listed are left out of the report, saying why (the metrics API still
// answers from it).
func reportMetricsOnce(ctx context.Context, member metricsv1beta1client.MetricsV1beta1Interface, listPods podLister, mco kubernetes.Interface, cluster string, now metav1.Time) error {
	pods, podsErr := member.PodMetricses(metav1.NamespaceAll).List(ctx, metav1.ListOptions{})
	nodes, nodesErr := member.NodeMetricses().List(ctx, metav1.ListOptions{})
	if podsErr != nil && nodesErr != nil {
		return fmt.Errorf("read the member's metrics: %w", podsErr)
	}
	data, err := registrymetrics.NewSnapshot(now, pods, nodes).WithPods(listPods()).Encode()
	if err != nil {
		return err
	}
	cms := mco.CoreV1().ConfigMaps(access.Namespace)
	cm := &corev1.ConfigMap{
		ObjectMeta: metav1.ObjectMeta{Name: access.MetricsConfigMapName(cluster), Namespace: access.Namespace,
			Labels: map[string]string{access.ManagedByLabel: cluster}},
		BinaryData: map[string][]byte{registrymetrics.SnapshotGzipKey: data},
	}
	_, err = cms.Update(ctx, cm, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) {
		_, err = cms.Create(ctx, cm, metav1.CreateOptions{})
	}
	if err != nil {
		return fmt.Errorf("write configmap %s/%s: %w", access.Namespace, cm.Name, err)
	}
	return nil
}
