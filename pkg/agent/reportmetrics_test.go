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
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	kubefake "k8s.io/client-go/kubernetes/fake"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/mco-org/mco/pkg/agent/access"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

func TestReportMetricsWritesTheAgentsConfigMap(t *testing.T) {
	t.Parallel()
	// The member's metrics API, answering as a snapshot does.
	member := registrymetrics.NewSnapshot(metav1.Now(),
		&metricsv1beta1.PodMetricsList{Items: []metricsv1beta1.PodMetrics{{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1"}}}},
		&metricsv1beta1.NodeMetricsList{Items: []metricsv1beta1.NodeMetrics{{ObjectMeta: metav1.ObjectMeta{Name: "node-1"}}}}).Client()
	mco := kubefake.NewClientset()
	ctx := context.Background()
	for i, at := range []int64{100, 115} {
		if err := reportMetricsOnce(ctx, member, mco, "member3", metav1.NewTime(time.Unix(at, 0))); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
		cm, err := mco.CoreV1().ConfigMaps(access.Namespace).Get(ctx, "member3-metrics", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
		s, err := registrymetrics.DecodeSnapshot(cm.Data[registrymetrics.SnapshotKey])
		if err != nil {
			t.Fatal(err)
		}
		if s.Time.Unix() != at || len(s.Pods) != 1 || s.Pods[0].Name != "web-1" || len(s.Nodes) != 1 || cm.Labels[access.ManagedByLabel] != "member3" {
			t.Errorf("report %d: %+v, labels %v", i, s, cm.Labels)
		}
	}
}
