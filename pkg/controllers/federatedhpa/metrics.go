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
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	podautoscalermetrics "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
	custommetricsv1beta2 "k8s.io/metrics/pkg/apis/custom_metrics/v1beta2"
	externalmetricsv1beta1 "k8s.io/metrics/pkg/apis/external_metrics/v1beta1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	resourceclient "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"
	customclient "k8s.io/metrics/pkg/client/custom_metrics"
	externalclient "k8s.io/metrics/pkg/client/external_metrics"

	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// podKey names a member's pod in the autoscaler's view of all members'
// pods: pods of the same name in two members stay apart, and the pod
// lister and the metrics agree on the name.
func podKey(name, cluster string) string { return name + "." + cluster }

// newMetricsClient reads resource metrics (CPU, memory) from mco's own
// metrics.k8s.io, which gathers them from the members, through
// Kubernetes' own metrics client, each pod named by podKey. Custom and
// external metrics are not gathered across members: asking for them is an
// error the autoscaler's conditions report.
func newMetricsClient(mco resourceclient.PodMetricsesGetter) podautoscalermetrics.MetricsClient {
	return podautoscalermetrics.NewRESTMetricsClient(keyedPodMetrics{mco}, notCustom{}, notExternal{})
}

// keyedPodMetrics names each PodMetrics by podKey.
type keyedPodMetrics struct {
	resourceclient.PodMetricsesGetter
}

func (k keyedPodMetrics) PodMetricses(namespace string) resourceclient.PodMetricsInterface {
	return keyedPodMetricsList{k.PodMetricsesGetter.PodMetricses(namespace)}
}

type keyedPodMetricsList struct {
	resourceclient.PodMetricsInterface
}

func (k keyedPodMetricsList) List(ctx context.Context, opts metav1.ListOptions) (*metricsv1beta1.PodMetricsList, error) {
	list, err := k.PodMetricsInterface.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	for i := range list.Items {
		pm := &list.Items[i]
		pm.Name = podKey(pm.Name, pm.Labels[registrymetrics.ClusterKey])
	}
	return list, nil
}

// errNotAcrossMembers says why a custom or external metric is not read.
var errNotAcrossMembers = fmt.Errorf("custom and external metrics are not gathered across member clusters; a FederatedHPA scales on Resource metrics (cpu, memory)")

// notCustom and notExternal answer every custom and external metric with
// errNotAcrossMembers.
type (
	notCustom   struct{}
	notExternal struct{}
)

var (
	_ customclient.CustomMetricsClient     = notCustom{}
	_ externalclient.ExternalMetricsClient = notExternal{}
)

func (notCustom) RootScopedMetrics() customclient.MetricsInterface           { return notCustom{} }
func (notCustom) NamespacedMetrics(string) customclient.MetricsInterface     { return notCustom{} }
func (notExternal) NamespacedMetrics(string) externalclient.MetricsInterface { return notExternal{} }

func (notCustom) GetForObject(schema.GroupKind, string, string, labels.Selector) (*custommetricsv1beta2.MetricValue, error) {
	return nil, errNotAcrossMembers
}

func (notCustom) GetForObjects(schema.GroupKind, labels.Selector, string, labels.Selector) (*custommetricsv1beta2.MetricValueList, error) {
	return nil, errNotAcrossMembers
}

func (notExternal) List(string, labels.Selector) (*externalmetricsv1beta1.ExternalMetricValueList, error) {
	return nil, errNotAcrossMembers
}
