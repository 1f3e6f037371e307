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
	"encoding/json"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"

	"github.com/mco-org/mco/pkg/agent/access"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

func TestReportedMetricsOfPullClusters(t *testing.T) {
	t.Parallel()
	at := time.Unix(1000, 0)
	snapshot := registrymetrics.NewSnapshot(metav1.NewTime(at), &metricsv1beta1.PodMetricsList{Items: []metricsv1beta1.PodMetrics{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1"}}}}, nil)
	data, err := snapshot.Encode()
	if err != nil {
		t.Fatal(err)
	}
	// An agent of an earlier mco stored its report as plain JSON.
	plain, err := json.Marshal(snapshot)
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]*corev1.ConfigMap{
		"member3-metrics": {BinaryData: map[string][]byte{registrymetrics.SnapshotGzipKey: data}},
		"member4-metrics": {Data: map[string]string{registrymetrics.SnapshotKey: "{"}},
		"member6-metrics": {Data: map[string]string{registrymetrics.SnapshotKey: string(plain)}},
	}
	m := &memberMetrics{configMap: func(_ context.Context, namespace, name string) (*corev1.ConfigMap, error) {
		if cm, ok := stored[name]; ok && namespace == access.Namespace {
			return cm, nil
		}
		return nil, apierrors.NewNotFound(corev1.Resource("configmaps"), name)
	}}
	ctx := context.Background()
	for _, cluster := range []string{"member3", "member6"} {
		client, reason := m.reported(ctx, cluster, at.Add(20*time.Second))
		if reason != "" {
			t.Fatalf("%s: a fresh report: %s", cluster, reason)
		}
		if list, err := client.PodMetricses("shop").List(ctx, metav1.ListOptions{}); err != nil || len(list.Items) != 1 {
			t.Errorf("%s: pods of the report: %+v, %v", cluster, list, err)
		}
	}
	for _, tc := range []struct {
		cluster string
		now     time.Time
		want    string
	}{
		{"member3", at.Add(2 * time.Minute), "its mco-agent's last report is 2m0s old"},
		{"member5", at, "its mco-agent has reported no metrics"},
		{"member4", at, "cannot be read"},
	} {
		if _, reason := m.reported(ctx, tc.cluster, tc.now); !strings.Contains(reason, tc.want) {
			t.Errorf("%s: %q, want %q", tc.cluster, reason, tc.want)
		}
	}
}
