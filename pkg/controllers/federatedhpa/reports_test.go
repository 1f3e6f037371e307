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
	"encoding/json"
	"errors"
	"sort"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"

	"github.com/mco-org/mco/pkg/agent/access"
	clusterv1alpha1 "github.com/mco-org/mco/pkg/apis/cluster/v1alpha1"
	clusterlisters "github.com/mco-org/mco/pkg/generated/listers/cluster/v1alpha1"
	registrymetrics "github.com/mco-org/mco/pkg/registry/metrics"
)

var reportTime = time.Unix(1000, 0)

// reportOf is a Pull cluster's report as its agent stores it.
func reportOf(t *testing.T, cluster string, s *registrymetrics.Snapshot) *corev1.ConfigMap {
	t.Helper()
	data, err := s.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: access.Namespace, Name: access.MetricsConfigMapName(cluster), ResourceVersion: "1"},
		BinaryData: map[string][]byte{registrymetrics.SnapshotGzipKey: data}}
}

func reportedPod(ns, name, app string) *corev1.Pod {
	return &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, Labels: map[string]string{"app": app}},
		Status: corev1.PodStatus{Phase: corev1.PodRunning}}
}

func configMapsOf(cms ...*corev1.ConfigMap) corelisters.ConfigMapLister {
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{cache.NamespaceIndex: cache.MetaNamespaceIndexFunc})
	for _, cm := range cms {
		_ = idx.Add(cm)
	}
	return corelisters.NewConfigMapLister(idx)
}

func TestReportedPods(t *testing.T) {
	t.Parallel()
	at := metav1.NewTime(reportTime)
	pods := []*corev1.Pod{reportedPod("shop", "web-1", "web"), reportedPod("shop", "db-1", "db")}
	old, err := json.Marshal(registrymetrics.NewSnapshot(at, nil, nil))
	if err != nil {
		t.Fatal(err)
	}
	r := newReports(configMapsOf(
		reportOf(t, "fresh", registrymetrics.NewSnapshot(at, nil, nil).WithPods(pods, nil)),
		reportOf(t, "none", registrymetrics.NewSnapshot(at, nil, nil).WithPods(nil, nil)),
		reportOf(t, "unlisted", registrymetrics.NewSnapshot(at, nil, nil).WithPods(nil, errors.New("not read yet"))),
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: access.Namespace, Name: "earlier-metrics"},
			Data: map[string]string{registrymetrics.SnapshotKey: string(old)}},
		&corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: access.Namespace, Name: "broken-metrics"},
			BinaryData: map[string][]byte{registrymetrics.SnapshotGzipKey: []byte("{")}},
	))
	for _, tc := range []struct {
		cluster string
		after   time.Duration
		want    int
		err     string
	}{
		{cluster: "fresh", after: 20 * time.Second, want: 2},
		{cluster: "none", want: 0},
		{cluster: "fresh", after: 2 * time.Minute, err: "last report is 2m0s old"},
		{cluster: "unlisted", err: "reported no pods: the member's pods could not be listed: not read yet"},
		{cluster: "earlier", err: "older than this controller"},
		{cluster: "broken", err: "decode metrics snapshot"},
		{cluster: "missing", err: `configmap "missing-metrics" not found`},
	} {
		r.now = func() time.Time { return reportTime.Add(tc.after) }
		got, err := r.pods(tc.cluster)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s after %s: %v, want %q", tc.cluster, tc.after, err, tc.err)
			}
			continue
		}
		if err != nil || len(got) != tc.want {
			t.Errorf("%s after %s: %d pods, %v; want %d", tc.cluster, tc.after, len(got), err, tc.want)
		}
	}
	var nilReports *reports
	if _, err := nilReports.pods("fresh"); err == nil {
		t.Error("no reports read, yet pods")
	}
}

// TestPullMembersPodsCounted: the autoscaler's pods across a Push member
// (its pod cache) and a Pull member (its agent's report), renamed and
// labelled by cluster; a Pull member without a usable report is not
// counted.
func TestPullMembersPodsCounted(t *testing.T) {
	t.Parallel()
	idx := cache.NewIndexer(cache.MetaNamespaceKeyFunc, cache.Indexers{})
	for _, c := range []struct {
		name  string
		mode  clusterv1alpha1.ClusterSyncMode
		ready metav1.ConditionStatus
	}{
		{"member3", clusterv1alpha1.Pull, metav1.ConditionTrue},
		{"member4", clusterv1alpha1.Pull, metav1.ConditionTrue},
		{"member5", clusterv1alpha1.Pull, metav1.ConditionFalse},
	} {
		_ = idx.Add(&clusterv1alpha1.Cluster{ObjectMeta: metav1.ObjectMeta{Name: c.name}, Spec: clusterv1alpha1.ClusterSpec{SyncMode: c.mode},
			Status: clusterv1alpha1.ClusterStatus{Conditions: []metav1.Condition{{Type: clusterv1alpha1.ClusterConditionReady, Status: c.ready}}}})
	}
	at := metav1.NewTime(reportTime)
	pods := []*corev1.Pod{reportedPod("shop", "web-1", "web"), reportedPod("shop", "db-1", "db"), reportedPod("lab", "web-2", "web")}
	r := newReports(configMapsOf(
		reportOf(t, "member3", registrymetrics.NewSnapshot(at, nil, nil).WithPods(pods, nil)),
		reportOf(t, "member4", registrymetrics.NewSnapshot(at, nil, nil).WithPods(nil, errors.New("not read yet"))),
		reportOf(t, "member5", registrymetrics.NewSnapshot(at, nil, nil).WithPods(pods, nil)),
	))
	r.now = func() time.Time { return reportTime.Add(10 * time.Second) }
	c := counting{clusters: clusterlisters.NewClusterLister(idx), members: reached{}, reports: r}
	for cluster, want := range map[string]bool{"member3": true, "member4": false, "member5": false} {
		if got := c.counted(cluster); got != want {
			t.Errorf("%s counted: %v, want %v", cluster, got, want)
		}
	}
	lister := memberPods{counting: c}
	for _, tc := range []struct {
		namespace, selector string
		want                []string
	}{
		{"", "app=web", []string{"lab/web-2.member3", "shop/web-1.member3"}},
		{"shop", "", []string{"shop/db-1.member3", "shop/web-1.member3"}},
		{"shop", "app=web," + registrymetrics.ClusterKey + "=member3", []string{"shop/web-1.member3"}},
		{"shop", registrymetrics.ClusterKey + "=member4", nil},
	} {
		sel, err := labels.Parse(tc.selector)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := lister.Pods(tc.namespace).List(sel)
		if tc.namespace == "" {
			got, _ = lister.List(sel)
		}
		var names []string
		for _, p := range got {
			names = append(names, p.Namespace+"/"+p.Name)
			if p.Labels[registrymetrics.ClusterKey] != "member3" {
				t.Errorf("%s labels %v", p.Name, p.Labels)
			}
		}
		sort.Strings(names)
		if strings.Join(names, ",") != strings.Join(tc.want, ",") {
			t.Errorf("pods in %q matching %q: %v, want %v", tc.namespace, tc.selector, names, tc.want)
		}
	}
	if p, err := lister.Pods("shop").Get(podKey("web-1", "member3")); err != nil || p.Status.Phase != corev1.PodRunning {
		t.Errorf("get web-1 of member3: %+v, %v", p, err)
	}
}
