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
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
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
	pods := func() ([]*corev1.Pod, error) {
		return []*corev1.Pod{{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1", UID: "u1"},
			Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "c", Image: "nginx",
				Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}}}}}}}, nil
	}
	mco := kubefake.NewClientset()
	ctx := context.Background()
	for i, at := range []int64{100, 115} {
		if err := reportMetricsOnce(ctx, member, pods, mco, "member3", metav1.NewTime(time.Unix(at, 0))); err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
		cm, err := mco.CoreV1().ConfigMaps(access.Namespace).Get(ctx, "member3-metrics", metav1.GetOptions{})
		if err != nil {
			t.Fatalf("report %d: %v", i, err)
		}
		s, err := registrymetrics.SnapshotOf(cm)
		if err != nil {
			t.Fatal(err)
		}
		if s.Time.Unix() != at || len(s.Pods) != 1 || s.Pods[0].Name != "web-1" || len(s.Nodes) != 1 || cm.Labels[access.ManagedByLabel] != "member3" {
			t.Errorf("report %d: %+v, labels %v", i, s, cm.Labels)
		}
		if !s.PodObjectsReported || len(s.PodObjects) != 1 || s.PodObjects[0].Name != "web-1" ||
			s.PodObjects[0].Spec.Containers[0].Resources.Requests.Cpu().MilliValue() != 10 {
			t.Errorf("report %d: pods %+v", i, s.PodObjects)
		}
	}
	// Pods that cannot be listed leave the report without them, saying why.
	noPods := func() ([]*corev1.Pod, error) { return nil, errors.New("the member's pods are not read yet") }
	if err := reportMetricsOnce(ctx, member, noPods, mco, "member3", metav1.NewTime(time.Unix(130, 0))); err != nil {
		t.Fatal(err)
	}
	cm, err := mco.CoreV1().ConfigMaps(access.Namespace).Get(ctx, "member3-metrics", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if s, err := registrymetrics.SnapshotOf(cm); err != nil || s.PodObjectsReported || !strings.Contains(s.PodObjectsLeftOut, "not read yet") || len(s.Pods) != 1 {
		t.Errorf("a report without pods: %+v, %v", s, err)
	}
}
