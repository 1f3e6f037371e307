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

package federatedhpa

import (
	"fmt"
	"sort"
	"sync"
	"time"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilerrors "k8s.io/apimachinery/pkg/util/errors"
	"k8s.io/client-go/rest"
	"k8s.io/klog/v2"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"

	"github.com/mco-org/mco/pkg/member"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// memberMetricTimeout bounds one read of a member's custom or external
// metrics API (the autoscaler's clients take no context).
const memberMetricTimeout = 5 * time.Second

// memberMetricAPIs reads Pods, Object and External metrics from the
// custom.metrics.k8s.io and external.metrics.k8s.io APIs of the members
// whose pods are counted, where a member serves them (an adapter such as
// prometheus-adapter registered in the member):
//   - a Pods metric is each pod's value in its member, the pod named by
//     podKey as the pod lister names it;
//   - an Object metric is the sum of the object's values in the members
//     that have it (an Ingress's requests per second in each member make
//     the whole);
//   - an External metric is every member's values together (the
//     autoscaler adds them up).
//
// A member that does not answer is left out; the metric is an error only
// when no member answers.
type memberMetricAPIs struct {
	counting
	mu   sync.Mutex
	apis map[*member.Clients]*metricAPIs
}

type metricAPIs struct {
	custom   customclient.CustomMetricsClient
	external externalclient.ExternalMetricsClient
}

var (
	_ customclient.CustomMetricsClient     = (*memberMetricAPIs)(nil)
	_ externalclient.ExternalMetricsClient = externalAcross{}
)

func newMemberMetricAPIs(c counting) *memberMetricAPIs {
	return &memberMetricAPIs{counting: c, apis: map[*member.Clients]*metricAPIs{}}
}

// of returns the metric clients of a member's current clients.
func (m *memberMetricAPIs) of(c *member.Clients) (*metricAPIs, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a, ok := m.apis[c]; ok {
		return a, nil
	}
	if c.Config == nil {
		return nil, fmt.Errorf("cluster %s: no client configuration", c.Cluster)
	}
	cfg := rest.CopyConfig(c.Config)
	cfg.Timeout = memberMetricTimeout
	// Discovery without a cache: an adapter registered later is found.
	custom := customclient.NewForConfig(cfg, c.Mapper, customclient.NewAvailableAPIsGetter(c.Kube.Discovery()))
	external, err := externalclient.NewForConfig(cfg)
	if err != nil {
		return nil, fmt.Errorf("cluster %s: external metrics client: %w", c.Cluster, err)
	}
	// Clients replaced by newer ones (new credentials) are dropped.
	for old := range m.apis {
		if old.Cluster == c.Cluster {
			delete(m.apis, old)
		}
	}
	a := &metricAPIs{custom: custom, external: external}
	m.apis[c] = a
	return a, nil
}

// each calls read for every counted member that passes the requirements
// on the cluster key (registrymetrics.ClusterKey), in name order; it
// fails only when no member answered.
func (m *memberMetricAPIs) each(what string, in labels.Selector, read func(cluster string, a *metricAPIs) error) error {
	clusters, err := m.clusters.List(labels.Everything())
	if err != nil {
		return fmt.Errorf("%s: list clusters: %w", what, err)
	}
	sort.Slice(clusters, func(i, j int) bool { return clusters[i].Name < clusters[j].Name })
	var errs []error
	answered := false
	for _, cl := range clusters {
		if !m.counted(cl.Name) || !registrymetrics.ClusterMatches(in, cl.Name) {
			continue
		}
		clients, err := m.members.Get(cl.Name)
		if err == nil {
			var a *metricAPIs
			if a, err = m.of(clients); err == nil {
				err = read(cl.Name, a)
			}
		}
		if err != nil {
			klog.V(2).InfoS("Member left out of a metric", "metric", what, "cluster", cl.Name, "err", err)
			errs = append(errs, fmt.Errorf("cluster %s: %w", cl.Name, err))
			continue
		}
		answered = true
	}
	if answered {
		return nil
	}
	if len(errs) == 0 {
		return fmt.Errorf("%s: no Ready member cluster is reached", what)
	}
	return fmt.Errorf("%s: no member cluster answered: %w", what, utilerrors.NewAggregate(errs))
}

func (m *memberMetricAPIs) RootScopedMetrics() customclient.MetricsInterface {
	return customAcross{m: m}
}

func (m *memberMetricAPIs) NamespacedMetrics(namespace string) customclient.MetricsInterface {
	return customAcross{m: m, namespace: namespace, namespaced: true}
}

// customAcross reads one scope's custom metrics from the members.
type customAcross struct {
	m          *memberMetricAPIs
	namespace  string
	namespaced bool
}

func (c customAcross) in(a *metricAPIs) customclient.MetricsInterface {
	if c.namespaced {
		return a.custom.NamespacedMetrics(c.namespace)
	}
	return a.custom.RootScopedMetrics()
}

// GetForObjects reads the metric of every matching object in each member
// (the autoscaler asks for pods), each object named by podKey; the
// selector's requirements on the cluster key choose the members.
func (c customAcross) GetForObjects(gk schema.GroupKind, selector labels.Selector, metricName string, metricSelector labels.Selector) (*custommetricsv1beta2.MetricValueList, error) {
	out := &custommetricsv1beta2.MetricValueList{}
	in, selector := registrymetrics.SplitByCluster(selector)
	err := c.m.each(fmt.Sprintf("custom metric %s of %s", metricName, gk), in, func(cluster string, a *metricAPIs) error {
		list, err := c.in(a).GetForObjects(gk, selector, metricName, metricSelector)
		if err != nil {
			return err
		}
		for _, v := range list.Items {
			v.DescribedObject.Name = podKey(v.DescribedObject.Name, cluster)
			out.Items = append(out.Items, v)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}

// GetForObject adds up the object's metric in the members that have it.
func (c customAcross) GetForObject(gk schema.GroupKind, name, metricName string, metricSelector labels.Selector) (*custommetricsv1beta2.MetricValue, error) {
	var sum *custommetricsv1beta2.MetricValue
	err := c.m.each(fmt.Sprintf("custom metric %s of %s %s", metricName, gk, name), labels.Everything(), func(_ string, a *metricAPIs) error {
		v, err := c.in(a).GetForObject(gk, name, metricName, metricSelector)
		if err != nil {
			return err
		}
		sum = addMetricValue(sum, v)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return sum, nil
}

// addMetricValue adds v to sum (nil at first): values add up, the newest
// timestamp stands.
func addMetricValue(sum, v *custommetricsv1beta2.MetricValue) *custommetricsv1beta2.MetricValue {
	if sum == nil {
		return v.DeepCopy()
	}
	sum.Value.Add(v.Value)
	if v.Timestamp.After(sum.Timestamp.Time) {
		sum.Timestamp = v.Timestamp
	}
	return sum
}

// external reads the members' external metrics.
func (m *memberMetricAPIs) external() externalclient.ExternalMetricsClient {
	return externalAcross{m: m}
}

type externalAcross struct{ m *memberMetricAPIs }

func (e externalAcross) NamespacedMetrics(namespace string) externalclient.MetricsInterface {
	return externalIn{m: e.m, namespace: namespace}
}

type externalIn struct {
	m         *memberMetricAPIs
	namespace string
}

// List gathers every member's values of the metric.
func (e externalIn) List(metricName string, metricSelector labels.Selector) (*externalmetricsv1beta1.ExternalMetricValueList, error) {
	out := &externalmetricsv1beta1.ExternalMetricValueList{}
	err := e.m.each("external metric "+metricName, labels.Everything(), func(_ string, a *metricAPIs) error {
		list, err := a.external.NamespacedMetrics(e.namespace).List(metricName, metricSelector)
		if err != nil {
			return err
		}
		out.Items = append(out.Items, list.Items...)
		return nil
	})
	if err != nil {
		return nil, err
	}
	return out, nil
}
