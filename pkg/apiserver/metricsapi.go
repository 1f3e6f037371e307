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

package apiserver

import (
	"context"
	"fmt"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metainternalversion "k8s.io/apimachinery/pkg/apis/meta/internalversion"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apiserver/pkg/registry/rest"
	genericapiserver "k8s.io/apiserver/pkg/server"
	metricsv1beta1client "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"

	"github.com/mco-org/mco/pkg/agent/access"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	"github.com/mco-org/mco/pkg/member"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// memberMetricsTimeout bounds one read of a member's metrics API, so that
// an unreachable member delays `kubectl top` by at most this long.
const memberMetricsTimeout = 5 * time.Second

// installMetricsAPI serves metrics.k8s.io/v1beta1 (pods and nodes) read
// from the members. Not behind a host's aggregator: the host's own
// metrics API (its metrics-server) keeps that group there.
func (c CompletedConfig) installMetricsAPI(s *genericapiserver.GenericAPIServer, clusters rest.Lister) error {
	scheme := c.extra.Scheme
	info := genericapiserver.NewDefaultAPIGroupInfo("metrics.k8s.io", scheme, runtime.NewParameterCodec(scheme), c.extra.Codecs)
	src := &memberMetrics{clusters: clusters, secret: c.getSecret, clients: map[string]cachedMetricsClient{},
		configMap: func(ctx context.Context, namespace, name string) (*corev1.ConfigMap, error) {
			return c.extra.KubeClient.CoreV1().ConfigMaps(namespace).Get(ctx, name, metav1.GetOptions{})
		}}
	info.VersionedResourcesStorageMap["v1beta1"] = map[string]rest.Storage{
		"pods":  registrymetrics.NewPods(src),
		"nodes": registrymetrics.NewNodes(src),
	}
	if err := s.InstallAPIGroup(&info); err != nil {
		return fmt.Errorf("install API group metrics.k8s.io: %w", err)
	}
	return nil
}

// memberMetrics hands out the metrics clients of the Ready Push clusters,
// with mco's own credentials for each, cached until they change, and of
// the Ready Pull clusters, answering from what their agents reported.
type memberMetrics struct {
	clusters  rest.Lister
	secret    func(ctx context.Context, namespace, name string) (*corev1.Secret, error)
	configMap func(ctx context.Context, namespace, name string) (*corev1.ConfigMap, error)

	mu      sync.Mutex
	clients map[string]cachedMetricsClient
}

type cachedMetricsClient struct {
	fingerprint string
	client      metricsv1beta1client.MetricsV1beta1Interface
}

var _ registrymetrics.Source = &memberMetrics{}

// Members returns a client per Ready Push cluster and says why each other
// cluster is left out.
func (m *memberMetrics) Members(ctx context.Context) ([]registrymetrics.Member, []string, error) {
	obj, err := m.clusters.List(ctx, &metainternalversion.ListOptions{})
	if err != nil {
		return nil, nil, err
	}
	list, ok := obj.(*clusterv1alpha1.ClusterList)
	if !ok {
		return nil, nil, fmt.Errorf("list clusters: unexpected %T", obj)
	}
	var out []registrymetrics.Member
	var leftOut []string
	for i := range list.Items {
		c := &list.Items[i]
		client, reason := m.client(ctx, c)
		if reason != "" {
			leftOut = append(leftOut, fmt.Sprintf("metrics of cluster %s left out: %s", c.Name, reason))
			continue
		}
		out = append(out, registrymetrics.Member{Cluster: c.Name, Client: client})
	}
	return out, leftOut, nil
}

// client returns a cluster's metrics client, or why it has none.
func (m *memberMetrics) client(ctx context.Context, c *clusterv1alpha1.Cluster) (metricsv1beta1client.MetricsV1beta1Interface, string) {
	if cond := meta.FindStatusCondition(c.Status.Conditions, clusterv1alpha1.ClusterConditionReady); cond == nil || cond.Status != metav1.ConditionTrue {
		return nil, "it is not Ready"
	}
	if c.Spec.SyncMode != clusterv1alpha1.Push {
		return m.reported(ctx, c.Name, time.Now())
	}
	if c.Spec.SecretRef == nil {
		return nil, "it has no secretRef"
	}
	secret, err := m.secret(ctx, c.Spec.SecretRef.Namespace, c.Spec.SecretRef.Name)
	if err != nil {
		return nil, fmt.Sprintf("its secret %s/%s cannot be read", c.Spec.SecretRef.Namespace, c.Spec.SecretRef.Name)
	}
	fp := member.Fingerprint(c, secret)
	m.mu.Lock()
	defer m.mu.Unlock()
	if cached, ok := m.clients[c.Name]; ok && cached.fingerprint == fp {
		return cached.client, ""
	}
	cfg, err := member.Config(c, secret, "mco-apiserver/metrics")
	if err != nil {
		return nil, err.Error()
	}
	cfg.Timeout = memberMetricsTimeout
	client, err := metricsv1beta1client.NewForConfig(cfg)
	if err != nil {
		return nil, err.Error()
	}
	m.clients[c.Name] = cachedMetricsClient{fingerprint: fp, client: client}
	return client, ""
}

// reported answers a Pull cluster's metrics from its agent's newest
// report, or says why it cannot.
func (m *memberMetrics) reported(ctx context.Context, cluster string, now time.Time) (metricsv1beta1client.MetricsV1beta1Interface, string) {
	name := access.MetricsConfigMapName(cluster)
	cm, err := m.configMap(ctx, access.Namespace, name)
	if apierrors.IsNotFound(err) {
		return nil, "it is in Pull mode and its mco-agent has reported no metrics (does the member serve metrics.k8s.io?)"
	}
	if err != nil {
		return nil, fmt.Sprintf("its mco-agent's report %s/%s cannot be read: %v", access.Namespace, name, err)
	}
	s, err := registrymetrics.SnapshotOf(cm)
	if err != nil {
		return nil, fmt.Sprintf("its mco-agent's report %s/%s cannot be read: %v", access.Namespace, name, err)
	}
	if err := s.Stale(now); err != nil {
		return nil, err.Error()
	}
	return s.Client(), ""
}
