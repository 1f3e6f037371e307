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

package metrics

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apiequality "k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metricsv1beta1 "k8s.io/metrics/pkg/apis/metrics/v1beta1"
)

func TestSnapshotAnswersAsTheMemberWould(t *testing.T) {
	t.Parallel()
	pod := func(ns, name, app string) metricsv1beta1.PodMetrics {
		return metricsv1beta1.PodMetrics{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}, ResourceVersion: "9",
				ManagedFields: []metav1.ManagedFieldsEntry{{Manager: "x"}}},
			Timestamp: metav1.NewTime(time.Unix(100, 0)), Window: metav1.Duration{Duration: 10 * time.Second},
			Containers: []metricsv1beta1.ContainerMetrics{{Name: "c", Usage: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("6m")}}},
		}
	}
	pods := &metricsv1beta1.PodMetricsList{Items: []metricsv1beta1.PodMetrics{pod("shop", "web-1", "web"), pod("shop", "db-1", "db"), pod("lab", "web-2", "web")}}
	nodes := &metricsv1beta1.NodeMetricsList{Items: []metricsv1beta1.NodeMetrics{{ObjectMeta: metav1.ObjectMeta{Name: "node-1"},
		Usage: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}}}}
	data, err := NewSnapshot(metav1.NewTime(time.Unix(105, 0)), pods, nodes).Encode()
	if err != nil {
		t.Fatal(err)
	}
	s, err := SnapshotOf(&corev1.ConfigMap{BinaryData: map[string][]byte{SnapshotGzipKey: data}})
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := json.Marshal(s); strings.Contains(string(plain), "managedFields") || strings.Contains(string(plain), "resourceVersion") {
		t.Errorf("snapshot keeps what the metrics API's readers do not read: %s", plain)
	}
	if s.Time.Unix() != 105 {
		t.Errorf("time %v", s.Time)
	}
	c := s.Client()
	ctx := context.Background()
	for _, tc := range []struct {
		ns, labels, fields string
		want               []string
	}{
		{"", "", "", []string{"shop/web-1", "shop/db-1", "lab/web-2"}},
		{"shop", "", "", []string{"shop/web-1", "shop/db-1"}},
		{"", "app=web", "", []string{"shop/web-1", "lab/web-2"}},
		{"", "", "metadata.name=db-1", []string{"shop/db-1"}},
		{"lab", "app=db", "", nil},
	} {
		list, err := c.PodMetricses(tc.ns).List(ctx, metav1.ListOptions{LabelSelector: tc.labels, FieldSelector: tc.fields})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, p := range list.Items {
			got = append(got, p.Namespace+"/"+p.Name)
		}
		if strings.Join(got, ",") != strings.Join(tc.want, ",") {
			t.Errorf("list %q -l %q --field-selector %q: %v, want %v", tc.ns, tc.labels, tc.fields, got, tc.want)
		}
	}
	got, err := c.PodMetricses("shop").Get(ctx, "web-1", metav1.GetOptions{})
	if err != nil || got.Containers[0].Usage.Cpu().MilliValue() != 6 || got.Window.Duration != 10*time.Second {
		t.Errorf("get web-1: %+v, %v", got, err)
	}
	if _, err := c.PodMetricses("lab").Get(ctx, "web-1", metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("get web-1 in lab: %v, want NotFound", err)
	}
	if n, err := c.NodeMetricses().Get(ctx, "node-1", metav1.GetOptions{}); err != nil || n.Usage.Cpu().Value() != 1 {
		t.Errorf("get node-1: %+v, %v", n, err)
	}
	if _, err := c.PodMetricses("").List(ctx, metav1.ListOptions{LabelSelector: "app in in"}); !apierrors.IsBadRequest(err) {
		t.Errorf("a bad selector: %v, want BadRequest", err)
	}
}

// randomName is a name gzip cannot shrink much.
func randomName(r *rand.Rand) string {
	const letters = "abcdefghijklmnopqrstuvwxyz0123456789"
	b := make([]byte, 40)
	for i := range b {
		b[i] = letters[r.IntN(len(letters))]
	}
	return string(b)
}

func TestSnapshotTooLarge(t *testing.T) {
	t.Parallel()
	r := rand.New(rand.NewPCG(1, 2))
	metricsOf := func(n int) *metricsv1beta1.PodMetricsList {
		pods := &metricsv1beta1.PodMetricsList{}
		for i := 0; i < n; i++ {
			pods.Items = append(pods.Items, metricsv1beta1.PodMetrics{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: randomName(r)}})
		}
		return pods
	}
	if _, err := NewSnapshot(metav1.Now(), metricsOf(40000), nil).Encode(); err == nil || !strings.Contains(err.Error(), "40000 pods") {
		t.Errorf("metrics over a ConfigMap's size: %v", err)
	}
	// Metrics that fit, pods that do not: the pods are left out, saying so.
	var objects []*corev1.Pod
	for i := 0; i < 20000; i++ {
		objects = append(objects, &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: randomName(r),
			Labels: map[string]string{"app": randomName(r), "hash": randomName(r)}}})
	}
	data, err := NewSnapshot(metav1.Now(), metricsOf(100), nil).WithPods(objects, nil).Encode()
	if err != nil {
		t.Fatal(err)
	}
	s, err := SnapshotOf(&corev1.ConfigMap{BinaryData: map[string][]byte{SnapshotGzipKey: data}})
	if err != nil || len(s.Pods) != 100 || s.PodObjectsReported || len(s.PodObjects) != 0 || !strings.Contains(s.PodObjectsLeftOut, "the report with the member's 20000 pods is") {
		t.Errorf("pods over a ConfigMap's size: %d metrics, reported %v, %d pods, %q, %v", len(s.Pods), s.PodObjectsReported, len(s.PodObjects), s.PodObjectsLeftOut, err)
	}
}

func TestSnapshotKeepsWhatTheAutoscalerReads(t *testing.T) {
	t.Parallel()
	start := metav1.NewTime(time.Unix(90, 0))
	pod := &corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1", UID: "u1", ResourceVersion: "7", Labels: map[string]string{"app": "web"},
			Annotations: map[string]string{"big": strings.Repeat("x", 1000)}},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "c", Image: "nginx", Command: []string{"run"},
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &start, PodIP: "10.0.0.1", Conditions: []corev1.PodCondition{
			{Type: corev1.PodScheduled, Status: corev1.ConditionTrue}, {Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: start}}},
	}
	data, err := NewSnapshot(metav1.Now(), nil, nil).WithPods([]*corev1.Pod{pod}, nil).Encode()
	if err != nil {
		t.Fatal(err)
	}
	s, err := SnapshotOf(&corev1.ConfigMap{BinaryData: map[string][]byte{SnapshotGzipKey: data}})
	if err != nil || !s.PodObjectsReported || len(s.PodObjects) != 1 {
		t.Fatalf("%+v, %v", s, err)
	}
	want := corev1.Pod{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1", Labels: map[string]string{"app": "web"}},
		Spec: corev1.PodSpec{NodeName: "node-1", Containers: []corev1.Container{{Name: "c",
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}}}}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning, StartTime: &start, Conditions: []corev1.PodCondition{
			{Type: corev1.PodReady, Status: corev1.ConditionTrue, LastTransitionTime: start}}},
	}
	if got := s.PodObjects[0]; !apiequality.Semantic.DeepEqual(got, want) {
		t.Errorf("reported pod:\n%+v\nwant\n%+v", got, want)
	}
	if _, err := SnapshotOf(&corev1.ConfigMap{}); err == nil {
		t.Error("a ConfigMap without a report decoded")
	}
}
