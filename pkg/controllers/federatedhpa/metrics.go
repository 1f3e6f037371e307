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

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	podautoscalermetrics "k8s.io/kubernetes/pkg/controller/podautoscaler/metrics"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
	resourceclient "k8s.io/metrics/pkg/client/clientset/versioned/typed/metrics/v1beta1"

	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

// podKey names a member's pod in the autoscaler's view of all members'
// pods: pods of the same name in two members stay apart, and the pod
// lister and the metrics agree on the name.
func podKey(name, cluster string) string { return name + "." + cluster }

// newMetricsClient is Kubernetes' own metrics client over the members'
// metrics: resource metrics (CPU, memory) from mco's own metrics.k8s.io,
// which gathers them from the members, each pod named by podKey; custom
// and external metrics from the members' own APIs (memberMetricAPIs).
func newMetricsClient(mco resourceclient.PodMetricsesGetter, members *memberMetricAPIs) podautoscalermetrics.MetricsClient {
	return podautoscalermetrics.NewRESTMetricsClient(keyedPodMetrics{mco}, members, members.external())
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
